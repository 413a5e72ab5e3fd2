# A minimal MCP server over stdio (Python's standard library only) with one tool, echo, and the completions
# capability but no resources and no prompts. With --noise it writes a line that is not JSON-RPC on stdout before
# every answer, as servers that print a banner or a debug line do.
import json, sys

noise = "--noise" in sys.argv[1:]

def send(message):
    if noise:
        sys.stdout.write("debug: handling a request\n")
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    method, params = m["method"], m.get("params") or {}
    if method == "initialize":
        res = {"protocolVersion": params["protocolVersion"], "capabilities": {"tools": {}, "completions": {}},
               "serverInfo": {"name": "plain", "version": "1"}}
    elif method == "tools/list":
        res = {"tools": [{"name": "echo", "description": "Says the text back.",
                          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}]}
    elif method == "tools/call":
        res = {"content": [{"type": "text", "text": (params.get("arguments") or {}).get("text", "")}], "isError": False}
    elif method == "completion/complete":
        res = {"completion": {"values": ["one"], "hasMore": False}}
    elif method == "ping":
        res = {}
    else:
        send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "method not found: " + method}})
        continue
    send({"jsonrpc": "2.0", "id": m["id"], "result": res})
