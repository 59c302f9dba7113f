from acp.schema import TextContentBlock


def greeting(name: str):
    return TextContentBlock(type="text", text=f"Hello, {name}")
