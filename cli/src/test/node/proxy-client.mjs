// The official TypeScript MCP SDK client through `openagent proxy mcp` (run by ProxyMcpCommandTest).
// Usage: node proxy-client.mjs DESCRIPTION_PART VALUE --url URL
//        node proxy-client.mjs DESCRIPTION_PART VALUE -- COMMAND ARGS...   (stdio: the client starts the proxy)
// Lists the tools, calls the tool whose description contains DESCRIPTION_PART with its one required
// parameter set to VALUE, then calls a tool that does not exist; prints each as a JSON line, then {"done": true}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [part, value, mode, ...rest] = process.argv.slice(2);
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

const transport = mode === '--url'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
const client = new Client({ name: 'openagent-proxy-test', version: '1.0.0' });
await client.connect(transport);
print({ server: client.getServerVersion() });
const { tools } = await client.listTools();
print({ tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) });
const tool = tools.find((t) => (t.description || '').includes(part));
if (!tool) throw new Error(`no tool whose description contains '${part}'`);
const r = await client.callTool({ name: tool.name, arguments: { [tool.inputSchema.required[0]]: value } });
print({ call: tool.name, isError: r.isError === true, text: text(r) });
try {
  const bad = await client.callTool({ name: 'no_such_tool', arguments: {} });
  print({ unknown: true, isError: bad.isError === true, text: text(bad) });
} catch (e) {
  print({ unknown: true, code: e.code, message: e.message });
}
await client.close();
print({ done: true });
