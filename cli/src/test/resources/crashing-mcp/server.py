import json, sys, os
# A minimal MCP server over stdio with one tool, lookup. Its first N calls (N = argv[2], counted in the
# file argv[1] across processes) kill the process, as a crashing server does; later calls answer.
marker = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m: continue
    meth = m.get("method")
    if meth == "initialize":
        res = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "crashy", "version": "1"}}
    elif meth == "tools/list":
        res = {"tools": [{"name": "lookup", "description": "Looks a product code up.", "inputSchema": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}}]}
    elif meth == "tools/call":
        n = int(open(marker).read()) if os.path.exists(marker) else 0
        open(marker, "w").write(str(n + 1))
        if n < int(sys.argv[2]): os._exit(1)
        res = {"content": [{"type": "text", "text": "Alpha"}]}
    else:
        res = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": res}) + "\n"); sys.stdout.flush()
