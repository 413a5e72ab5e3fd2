# A minimal MCP server over stdio (Python's standard library only) in front of one SQLite database, opened at
# start and held open, as SQLite MCP servers do: argv[1] is the database file. Its tools take SQL as one text
# argument: query (reads; rows as JSON) and execute (writes). A database file replaced under the open
# connection is no longer the one it writes to: SQLite then refuses every write (SQLITE_READONLY_DBMOVED).
import json, sqlite3, sys

db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("select count(*) from sqlite_master").fetchone()   # opens the file now
TOOLS = [
    {"name": "query", "description": "Runs a read-only SQL query and returns the rows as JSON.",
     "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "execute", "description": "Runs one SQL statement that changes the database.",
     "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}},
]

def call(name, args):
    try:
        if name == "query":
            cur = db.execute(args["sql"])
            cols = [c[0] for c in cur.description or []]
            return json.dumps([dict(zip(cols, row)) for row in cur.fetchall()]), False
        if name == "execute":
            cur = db.execute(args["sql"])
            return "ok: %d row(s) changed" % cur.rowcount, False
        return "unknown tool " + name, True
    except sqlite3.Error as e:
        return "SQLite error: %s" % e, True

for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    method = m["method"]
    if method == "initialize":
        res = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "sqlite-held", "version": "1"}}
    elif method == "tools/list":
        res = {"tools": TOOLS}
    elif method == "tools/call":
        text, error = call(m["params"]["name"], m["params"].get("arguments") or {})
        res = {"content": [{"type": "text", "text": text}], "isError": error}
    elif method == "ping":
        res = {}
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "method not found: " + method}}) + "\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": res}) + "\n")
    sys.stdout.flush()
