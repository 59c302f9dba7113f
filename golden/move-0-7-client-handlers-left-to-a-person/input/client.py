# Case: 0.6 client handlers fix cannot move alone: a request model kept, `field_meta` read, a local named as a parameter, a factory passing more than the connection
from acp import Client, ClientSideConnection
from acp.schema import ReadTextFileRequest, ReadTextFileResponse, RequestPermissionRequest, SessionNotification


class RecordingClient(Client):
    def __init__(self, conn, log):
        self._conn = conn
        self.log = log

    async def sessionUpdate(self, params: SessionNotification) -> None:
        self.log.append(params)

    async def requestPermission(self, params: RequestPermissionRequest):
        return self.decide(params.toolCall, params.field_meta)

    async def readTextFile(self, params: ReadTextFileRequest) -> ReadTextFileResponse:
        path = self.root / params.path
        return ReadTextFileResponse(content=path.read_text())


def connect(log, writer, reader):
    return ClientSideConnection(lambda conn: RecordingClient(conn, log), writer, reader)
