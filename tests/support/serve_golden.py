"""Serve the agent of a migrated golden case on stdio, the way its SDK starts one.

    python tests/support/serve_golden.py FOLDER MODULE MAKE

``FOLDER`` holds the case's files (a copy of ``golden/<case>/expected``) and goes
first on ``sys.path``; ``MODULE`` is the agent's module there (``agent``,
``pool.agent``); ``MAKE`` is a Python expression that builds the agent, evaluated
in that module's namespace (a name the module lacks is imported as a module of
``FOLDER``: ``PlainAgent(registry.Registry())``). When ``MAKE`` uses ``conn``, the
agent is made by an SDK factory around the connection::

    AgentSideConnection(lambda conn: MAKE, writer, reader)

otherwise it is served with ``run_agent(MAKE)``, which calls its ``on_connect``.
Either way the process serves until its stdin ends, then exits with status 0.

Runs on the interpreter of the case's SDK release: 0.12 (the suite's) or 0.4.9,
0.5.0, 0.6.3 (``support.sdk_venv``; factories only, they have no ``run_agent``). On 0.12 the
golden cases are written against the API of AgentPool's fork of the SDK, which
the official release lacks, so before loading the case this adds the two things
they use from it:

- ``InitializeResponse.create(...)`` and ``AgentCapabilities.create(...)``, keyword
  factories (a ``slash_commands`` keyword is refused: migrated code has none);
- request-object handlers under snake_case names (``new_session(self, params)``):
  the SDK already calls a handler whose only parameter is ``params`` with the
  request model for names without an underscore (``initialize``, ``prompt``);
  this extends that rule to every name, through the SDK's own request path.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.metadata
import inspect
import sys
from pathlib import Path
from typing import Any


def _sdk_release() -> tuple[int, int]:
    major, minor = importlib.metadata.version("agent-client-protocol").split(".")[:2]
    return int(major), int(minor)


def _add_fork_api() -> None:
    """What the golden cases use from AgentPool's SDK fork, on the official SDK 0.12."""
    from acp import router, schema

    def capabilities(
        *,
        load_session: bool = False,
        image: bool = False,
        audio: bool = False,
        embedded_context: bool = False,
        http_mcp: bool = False,
        sse_mcp: bool = False,
        resume_session: bool = False,
        fork_session: bool = False,
        close_session: bool = False,
    ) -> schema.AgentCapabilities:
        return schema.AgentCapabilities(
            load_session=load_session,
            prompt_capabilities=schema.PromptCapabilities(image=image, audio=audio, embedded_context=embedded_context),
            mcp_capabilities=schema.McpCapabilities(http=http_mcp, sse=sse_mcp),
            session_capabilities=schema.SessionCapabilities(
                resume=schema.SessionResumeCapabilities() if resume_session else None,
                fork=schema.SessionForkCapabilities() if fork_session else None,
                close=schema.SessionCloseCapabilities() if close_session else None,
            ),
        )

    def initialize_response(
        *, protocol_version: int, name: str | None = None, title: str | None = None, version: str = "0", **flags: bool
    ) -> schema.InitializeResponse:
        return schema.InitializeResponse(
            protocol_version=protocol_version,
            agent_info=schema.Implementation(name=name, title=title, version=version) if name else None,
            agent_capabilities=capabilities(**flags),
        )

    schema.AgentCapabilities.create = staticmethod(capabilities)  # type: ignore[attr-defined]
    schema.InitializeResponse.create = staticmethod(initialize_response)  # type: ignore[attr-defined]

    resolve = router._resolve_handler

    def resolve_request_objects(obj: Any, attr: str) -> tuple[Any, str, bool]:
        func, name, request_object = resolve(obj, attr)
        if func is not None and not request_object:
            parameters = inspect.signature(getattr(func, "__func__", func)).parameters
            request_object = list(parameters) == ["self", "params"]
        return func, name, request_object

    router._resolve_handler = resolve_request_objects


def _make(folder: Path, module_name: str, make: str) -> tuple[Any, bool]:
    """The agent (or, for a factory, the function of the connection that makes it)."""
    module = importlib.import_module(module_name)
    namespace = dict(vars(module))
    code = compile(make, "<make>", "eval")
    for name in code.co_names:
        if name not in namespace and (folder / f"{name}.py").is_file():
            namespace[name] = importlib.import_module(name)
    if "conn" in code.co_names:
        return eval(compile(f"lambda conn: ({make})", "<make>", "eval"), namespace), True
    return eval(code, namespace), False


async def _serve(folder: Path, module_name: str, make: str) -> None:
    release = _sdk_release()
    if release >= (0, 12):
        _add_fork_api()
    agent, is_factory = _make(folder, module_name, make)

    if release >= (0, 12):
        from acp import run_agent
        from acp.agent.connection import AgentSideConnection
        from acp.stdio import stdio_streams

        if not is_factory:
            await run_agent(agent, use_unstable_protocol=True)  # resume and fork are unstable in 0.12
            return
        reader, writer = await stdio_streams()
        connection = AgentSideConnection(agent, writer, reader, listening=False, use_unstable_protocol=True)
        try:
            await connection.listen()
        finally:
            await connection.close()
        return

    from acp import AgentSideConnection
    from acp.stdio import stdio_streams

    if not is_factory:
        raise SystemExit(f"SDK {release} has no run_agent: MAKE must build the agent from `conn`")
    reader, writer = await stdio_streams()
    connection = AgentSideConnection(agent, writer, reader)
    try:
        await connection._conn._recv_task  # 0.4-0.6 receive from construction on; this ends with stdin
    finally:
        await connection.close()


def main(argv: list[str]) -> None:
    if len(argv) != 3:
        raise SystemExit(__doc__)
    folder = Path(argv[0]).resolve()
    sys.path.insert(0, str(folder))
    asyncio.run(_serve(folder, argv[1], argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])
