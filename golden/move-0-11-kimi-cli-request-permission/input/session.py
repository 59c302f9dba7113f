# Case: kimi-cli 1.52.0 (kimi_cli/acp/session.py, excerpt, Apache-2.0) written for SDK 0.8.0: request_permission by position, options first
import acp


class ACPSession:
    def __init__(self, id: str, conn: acp.Client) -> None:
        self._id = id
        self._conn = conn

    async def _request_approval(self, request, state, content) -> None:
        response = await self._conn.request_permission(
            [
                acp.schema.PermissionOption(
                    option_id="approve",
                    name="Approve once",
                    kind="allow_once",
                ),
                acp.schema.PermissionOption(
                    option_id="reject",
                    name="Reject",
                    kind="reject_once",
                ),
            ],
            self._id,
            acp.schema.ToolCallUpdate(
                tool_call_id=state.acp_tool_call_id,
                title=state.get_title(),
                content=content,
            ),
        )
        if isinstance(response.outcome, acp.schema.AllowedOutcome):
            request.resolve(response.outcome.option_id)

    async def _read(self, path: str) -> str:
        # Keywords already: left as they are.
        response = await self._conn.read_text_file(path=path, session_id=self._id)
        return response.content

    async def _write(self, path: str, text: str) -> None:
        await self._conn.write_text_file(text, path, self._id)
