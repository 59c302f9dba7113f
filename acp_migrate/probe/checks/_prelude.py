"""Frames the rules' examples share (not a rule: its name does not start with a code)."""

INIT = (
    '-> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}\n'
    '<- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{}}}\n'
)
INIT_LOAD = (
    '-> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}\n'
    '<- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}\n'
)
NEW = '-> {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/work","mcpServers":[]}}\n'
NEW_RESULT = '<- {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}\n'
WEB = '{"name":"web","description":"Search the web","input":{"hint":"query"}}'


def update(session_id: str, commands: str) -> str:
    return (
        '<- {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"%s",'
        '"update":{"sessionUpdate":"available_commands_update","availableCommands":%s}}}\n' % (session_id, commands)
    )
