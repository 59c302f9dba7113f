"""Commands shared by the agents of the acme namespace."""

from acp.schema import AvailableCommand

COMMANDS = [AvailableCommand(name="review", description="Review the diff")]
