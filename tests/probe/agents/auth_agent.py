"""Needs authentication, as codex and gemini do: initialize advertises the method
`api-key`; session/new is refused until `authenticate` with it succeeded."""

from tiny_agent import TinyAgent, response

AUTH_METHODS = [{"id": "api-key", "name": "API key", "description": "Use the key in API_KEY"}]


class Agent(TinyAgent):
    def __init__(self) -> None:
        super().__init__()
        self.authenticated = False

    def initialize(self, request):
        result = {"protocolVersion": 1, "agentCapabilities": self.capabilities, "authMethods": AUTH_METHODS}
        return [response(request, result)]

    def handle(self, message):
        if message.get("method") == "authenticate" and "id" in message:
            if message["params"].get("methodId") != "api-key":
                return [{"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": "unknown method"}}]
            self.authenticated = True
            return [response(message, {})]
        if message.get("method") == "session/new" and not self.authenticated:
            error = {"code": -32000, "message": "Authentication required"}
            return [{"jsonrpc": "2.0", "id": message["id"], "error": error}]
        return super().handle(message)


Agent().serve()
