"""A proxy between new clients and old agents: it strips the legacy key from old answers.

>>> strip({"agentCapabilities": {"loadSession": True}})
{'agentCapabilities': {'loadSession': True}}
"""


def strip(answer: dict) -> dict:
    answer.get("agentCapabilities", {}).pop("slashCommands", None)
    return answer
