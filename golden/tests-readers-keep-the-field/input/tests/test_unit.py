import unittest

import pytest

from myagent.schema import AgentCapabilities
from acp.schema import AvailableCommand


class CapsTest(unittest.TestCase):
    def setUp(self):
        self.caps = AgentCapabilities(slash_commands=[AvailableCommand(name="eval", description="Eval")])

    def test_eval_listed(self):
        self.assertIn("eval", [c.name for c in self.caps.slash_commands])

    def test_unrelated(self):
        self.assertFalse(self.caps.load_session)


@pytest.mark.parametrize("command", AgentCapabilities(slash_commands=[AvailableCommand(name="a", description="A")]).slash_commands)
def test_each(command):
    assert command.name


def test_other():
    assert 1 + 1 == 2
