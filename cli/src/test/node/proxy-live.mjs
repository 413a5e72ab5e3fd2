// The official TypeScript MCP SDK client through `openagent proxy mcp` in front of proxy-upstream.mjs (run by
// ProxyMcpCommandTest): notifications between calls, a tool list that changes, cancellation, and an upstream
// killed mid-session. Usage: node proxy-live.mjs --url URL | -- COMMAND ARGS...   (stdio: the client starts the proxy)
// Prints one JSON line per check, then {"done": true}.
import { print, text, transportFrom, newClient } from './mcp-common.mjs';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, ...rest] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (check, ms) => { for (let t = 0; t < ms && !check(); t += 50) await sleep(50); return check(); };

const transport = transportFrom(mode, rest);
const client = newClient('openagent-proxy-live-test');
const logs = [];
let listChanged = 0;
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params.data); });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged++; });
await client.connect(transport);
// Names are shifted: find each tool by its (true) description.
let tools = (await client.listTools()).tools;
const by = (part) => tools.find((t) => (t.description || '').includes(part));
const call = (part, args = {}, options) => client.callTool({ name: by(part).name, arguments: args }, undefined, options);
const first = tools.map((t) => ({ name: t.name, description: t.description }));

// 1. A logging message sent after its call returned reaches the client (over HTTP: on the GET stream).
await call('Send a log message', { [Object.keys(by('Send a log message').inputSchema.properties)[0]]: 'between-calls' });
print({ between: await until(() => logs.includes('between-calls'), 5000), logs });

// 2. A tool added upstream: the client is told, and lists it (the others keep their names when they come first).
await call('Add a tool', { [Object.keys(by('Add a tool').inputSchema.properties)[0]]: 'fresh_tool' });
const told = await until(() => listChanged > 0, 5000);
tools = (await client.listTools()).tools;
const fresh = by('A fresh tool called');
print({ listChanged: told, fresh: fresh ? fresh.name : null, freshRuns: fresh ? text(await call('A fresh tool called')) : null,
  kept: first.filter((t) => tools.some((u) => u.name === t.name && u.description === t.description)).length, before: first.length });

// 3. A call the client cancels: the client stops waiting, and the upstream is told (it lists the cancelled ids).
const abort = new AbortController();
const slow = call('Wait until cancelled', {}, { signal: abort.signal, timeout: 120000 }).then(() => 'answered', (e) => 'rejected: ' + e.message);
await sleep(500);
abort.abort('the user changed their mind');
print({ cancelledCall: await slow });
let seen = [];
await until(() => false, 300);
for (let i = 0; i < 20 && seen.length === 0; i++) {
  seen = JSON.parse(text(await call('cancellation arrived')));
  if (seen.length === 0) await sleep(100);
}
print({ upstreamSawCancel: seen });

// 4. The upstream killed mid-session: that call is an MCP error, the next succeeds (the proxy restarted it).
const pid = Number(text(await call('process id')));
process.kill(pid, 'SIGKILL');
await until(() => { try { process.kill(pid, 0); return false; } catch { return true; } }, 5000);
try {
  const r = await call('Echo', { [Object.keys(by('Echo').inputSchema.properties)[0]]: 'after the kill' });
  print({ killed: 'answered', isError: r.isError === true, text: text(r) });
} catch (e) {
  print({ killed: 'error', code: e.code, message: e.message });
}
const again = await call('Echo', { [Object.keys(by('Echo').inputSchema.properties)[0]]: 'after the restart' });
print({ restarted: text(again), isError: again.isError === true, pidNow: text(await call('process id')), pidBefore: String(pid) });
await client.close();
print({ done: true });
