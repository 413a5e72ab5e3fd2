// The official TypeScript MCP SDK client against `openagent serve mcp` (run by NodeClientsTest).
// Usage: node mcp-client.mjs PLAN_JSON --url URL          (Streamable HTTP)
//        node mcp-client.mjs PLAN_JSON -- COMMAND ARGS...  (stdio: the client starts the server)
// Prints the tools, the task, and each planned call's result as JSON lines, then {"done": true}.
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [file, mode, ...rest] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(file, 'utf8'));
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

const transport = mode === '--url'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
const client = new Client({ name: 'openagent-node-test', version: '1.0.0' });
await client.connect(transport);
print({ server: client.getServerVersion() });
const { tools } = await client.listTools();
print({ tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) });
print({ task: text(await client.callTool({ name: 'get_task', arguments: {} })) });
for (const step of plan.steps) {
  const r = await client.callTool({ name: step.name, arguments: step.arguments });
  print({ call: step.name, isError: r.isError === true, text: text(r) });
}
await client.close();
print({ done: true });
