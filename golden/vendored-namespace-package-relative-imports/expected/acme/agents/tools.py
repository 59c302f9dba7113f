"""Commands of the coder agent."""

from acp.schema import AvailableCommand

COMMANDS = [AvailableCommand(name="review", description="Review the diff")]
