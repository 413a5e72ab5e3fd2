// The official TypeScript MCP SDK client through `openagent proxy mcp` (run by ProxyMcpCommandTest).
// Usage: node proxy-client.mjs DESCRIPTION_PART VALUE --url URL
//        node proxy-client.mjs DESCRIPTION_PART VALUE -- COMMAND ARGS...   (stdio: the client starts the proxy)
// Lists the tools, calls the tool whose description contains DESCRIPTION_PART with its one required
// parameter set to VALUE, then calls a tool that does not exist; prints each as a JSON line, then {"done": true}.
import { print, text, transportFrom, newClient, printServerAndTools } from './mcp-common.mjs';

const [part, value, mode, ...rest] = process.argv.slice(2);

const transport = transportFrom(mode, rest);
const client = newClient('openagent-proxy-test');
await client.connect(transport);
const tools = await printServerAndTools(client);
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
