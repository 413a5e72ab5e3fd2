// The official TypeScript MCP SDK client against `openagent serve mcp` (run by NodeClientsTest).
// Usage: node mcp-client.mjs PLAN_JSON --url URL          (Streamable HTTP)
//        node mcp-client.mjs PLAN_JSON -- COMMAND ARGS...  (stdio: the client starts the server)
// Prints the tools, the task, and each planned call's result as JSON lines, then {"done": true}.
import fs from 'node:fs';
import { print, text, transportFrom, newClient, printServerAndTools } from './mcp-common.mjs';

const [file, mode, ...rest] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(file, 'utf8'));

const transport = transportFrom(mode, rest);
const client = newClient('openagent-node-test');
await client.connect(transport);
const tools = await printServerAndTools(client);
print({ task: text(await client.callTool({ name: 'get_task', arguments: {} })) });
for (const step of plan.steps) {
  const r = await client.callTool({ name: step.name, arguments: step.arguments });
  print({ call: step.name, isError: r.isError === true, text: text(r) });
}
await client.close();
print({ done: true });
