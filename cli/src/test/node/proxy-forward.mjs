// The official TypeScript MCP SDK client through `openagent proxy mcp` in front of server-everything (run by
// ProxyMcpCommandTest): what the proxy does not shift must arrive unchanged.
// Usage: node proxy-forward.mjs --url URL | -- COMMAND ARGS...   (stdio: the client starts the proxy)
// Prints one JSON line per check, then {"done": true}.
import { print, transportFrom, newClient } from './mcp-common.mjs';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, ...rest] = process.argv.slice(2);
const transport = transportFrom(mode, rest);
const client = newClient('openagent-proxy-forward-test');
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
await client.connect(transport);
print({ capabilities: client.getServerCapabilities() });
const { prompts } = await client.listPrompts();
print({ prompts: prompts.map((p) => p.name) });
const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lisbon', state: 'Portugal' } });
print({ prompt: prompt.messages.map((m) => m.content.text).join('\n') });
const { resources } = await client.listResources();
print({ resources: resources.map((r) => r.uri) });
const read = await client.readResource({ uri: resources[0].uri });
print({ read: resources[0].uri, contents: read.contents.map((c) => c.text ?? c.blob ?? '').join('').slice(0, 200) });
const { resourceTemplates } = await client.listResourceTemplates();
print({ templates: resourceTemplates.map((t) => t.uriTemplate) });
try {
  await client.getPrompt({ name: 'no-such-prompt' });
  print({ badPrompt: 'answered' });
} catch (e) {
  print({ badPrompt: true, code: e.code, message: e.message });
}
await client.setLoggingLevel('debug');
const { tools } = await client.listTools();
const longRunning = tools.find((t) => (t.description || '').includes('long running operation'));
const progress = [];
const done = await client.callTool({ name: longRunning.name, arguments: { [Object.keys(longRunning.inputSchema.properties).find((k) => longRunning.inputSchema.properties[k].type === 'number' && /step/i.test(longRunning.inputSchema.properties[k].description || ''))]: 3,
  [Object.keys(longRunning.inputSchema.properties).find((k) => /duration/i.test(longRunning.inputSchema.properties[k].description || ''))]: 0.3 } },
  undefined, { onprogress: (p) => progress.push(p) });
print({ call: longRunning.name, isError: done.isError === true, progress: progress.length });
const logging = tools.find((t) => (t.description || '').toLowerCase().includes('logging'));
if (logging) {
  await client.callTool({ name: logging.name, arguments: {} });
  await new Promise((r) => setTimeout(r, 1000));
  await client.callTool({ name: logging.name, arguments: {} });
}
print({ logs: logs.length });
await client.close();
print({ done: true });
