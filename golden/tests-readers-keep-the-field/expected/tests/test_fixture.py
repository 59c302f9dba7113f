def test_names(command_names):
    assert command_names == ["a"]


def test_plain():
    assert True
