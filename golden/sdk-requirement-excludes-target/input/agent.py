from acp import text_block


def greeting(name: str):
    return text_block(f"Hello, {name}")
