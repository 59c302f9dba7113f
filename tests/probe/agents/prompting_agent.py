"""Asks the client for permission and a file during a prompt turn, then ends the turn
with what the client answered in a message: the probe must answer both."""

import json
import sys

from tiny_agent import TinyAgent, response


class Agent(TinyAgent):
    def prompt(self, request):
        session_id = request["params"]["sessionId"]
        ask = {
            "jsonrpc": "2.0",
            "id": "perm-1",
            "method": "session/request_permission",
            "params": {
                "sessionId": session_id,
                "toolCall": {"toolCallId": "call-1", "title": "Edit a file"},
                "options": [
                    {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
                    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
                ],
            },
        }
        read = {
            "jsonrpc": "2.0",
            "id": "read-1",
            "method": "fs/read_text_file",
            "params": {"sessionId": session_id, "path": "/etc/hostname"},
        }
        self.write([ask, read])
        answers = [json.loads(sys.stdin.readline()) for _ in range(2)]  # blocks until the client answers
        chose = next(a for a in answers if a["id"] == "perm-1")["result"]["outcome"]
        text = {"type": "text", "text": json.dumps(chose)}
        chunk = {"sessionUpdate": "agent_message_chunk", "content": text}
        message = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session_id, "update": chunk}}
        return [message, response(request, {"stopReason": "end_turn"})]


Agent().serve()
