"""ACP005 commands-not-advertised: a command list advertised at `initialize` that `fix`
cannot hand to the agent's `CommandAdvertiser` (ACP001 says where the lists go).

Reported by `fix` in place of the ACP001/ACP002/ACP003 finding it could not fix: it
cannot move the list safely (the value uses locals of a
method `initialize` calls, it is advertised only under a condition, it awaits in an `initialize` that is not async, the class has
nowhere to create or bind the advertiser, the agent is made by a factory wrapped in code
not proven to hand it its connection (in its module or in the one serving it, `server.py`:
the message names that file and line; a class no file of the project makes, its factory
being outside the project, is moved as if made with its connection), or the code is not an agent's
`initialize`, a method it calls, or a module constant it uses). Code that cannot be moved
stays where it was: the keyword, its value and the locals feeding it are kept, and a
`# acp-migrate: TODO` line goes above the statement (ACP007 keeps reporting it), so
the project runs as before and the person has everything needed to finish: advertise
the list per session (`CommandAdvertiser.advertise(...)`), then delete the keyword and
the TODO.

Resolving it, by the reason `fix` gave:

1. The agent class holds one `CommandAdvertiser` per connection: create it in
   `__init__` (or as a dataclass field), and call `bind(conn)` in `on_connect`, or
   first thing in `initialize` from the attribute holding the connection (never in
   `__init__`: an SDK factory calls it before the connection can send). Where the
   factory is wrapped (`AgentSideConnection(traced(lambda conn: Agent(conn)), ...)`),
   bind the connection that serves the session: not a proxy of it, not the connection
   of an agent made for an earlier one (or make the wrapper a plain pass-through).
2. `initialize` gives it the list: `self.advertiser.advertise(<the list>)`, or a
   function it calls at each session setup (`self.advertiser.advertise(self.commands)`).
   The advertiser then sends every session set up on the connection (new, load, resume,
   fork) its commands after the setup response; the handlers are not edited. A list
   built from locals of a helper is built by a method the advertiser can call; a list
   advertised only under a condition is advertised under the same condition.
   Lists the server already sends with `available_commands_update` stay: the shim
   merges the two.
3. Where the code is not an agent's `initialize` (a helper building the response, as
   below), the helper's callers stop passing the list, and the agent advertises it as
   in 2.
4. Delete the keyword, the locals only it used and the `# acp-migrate: TODO` line;
   `acp-migrate check` then reports nothing there (ACP001 and ACP007 went with them).
"""

from __future__ import annotations

from acp_migrate.rules.base import NO_FIELD_SITE, Example, Rule
from acp_migrate.rules.shared import LEGACY_KEYS, LEGACY_TOKENS


class CommandsNotAdvertised(Rule):
    code = "ACP005"
    name = "commands-not-advertised"
    summary = "A command list removed from initialize must be advertised per session."
    fixable = False
    # Reported by the rules that remove a list (`shared.advertised.keep_advertised`),
    # in files that hold the field.
    triggers = LEGACY_TOKENS
    screen_words = LEGACY_KEYS
    # reported only where ACP001-003 report
    screen_harmless = NO_FIELD_SITE
    # An agent's factory in the module serving it: its rewire refuses an unproven one.
    gathers = (b"AgentSideConnection(",)
    examples = (
        Example(
            before=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
            ),
            after=(
                "from acp.schema import InitializeResponse\n"
                "\n"
                "\n"
                "def initialize_result(commands):\n"
                "    # acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)\n"
                "    return InitializeResponse.create(protocol_version=1, slash_commands=commands)\n"
            ),
            resolved=(
                "import uuid\n"
                "\n"
                "from acp.schema import InitializeResponse, LoadSessionResponse, NewSessionResponse\n"
                "\n"
                "from acp_migrate.runtime import CommandAdvertiser\n"
                "\n"
                "\n"
                "def initialize_result():\n"
                "    return InitializeResponse.create(protocol_version=1)\n"
                "\n"
                "\n"
                "class Agent:\n"
                "    def __init__(self, commands):\n"
                "        self.commands = commands\n"
                "        self.advertiser = CommandAdvertiser()  # one per connection\n"
                "\n"
                "    def on_connect(self, conn):\n"
                "        self.advertiser.bind(conn)\n"
                "\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        self.advertiser.advertise(self.commands)\n"
                "        return initialize_result()\n"
                "\n"
                "    async def new_session(self, cwd, **kwargs):\n"
                "        return NewSessionResponse(session_id=uuid.uuid4().hex)\n"
                "\n"
                "    async def load_session(self, cwd, session_id, **kwargs):\n"
                "        return LoadSessionResponse()\n"
            ),
        ),
    )

    @staticmethod
    def may_gather(tree):
        from acp_migrate.rules.shared.agent_factory import may_make_agents_elsewhere

        return may_make_agents_elsewhere(tree)

    @staticmethod
    def gather(context):
        from acp_migrate.rules.shared.agent_factory import gather_factories

        return gather_factories(context)
