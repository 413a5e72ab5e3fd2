// A small MCP server over stdio (the official TypeScript SDK's McpServer) for ProxyMcpCommandTest: the things a
// proxy must pass on live. Tools: echo; add_tool (a new tool appears: tools/list_changed); log_later (a logging
// message after the call has returned); slow (waits until cancelled, writing a file when it starts); cancellations (the request ids the client
// cancelled, as the server saw them); pid (this process, for the test to kill it).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { writeFileSync } from 'node:fs';

const server = new McpServer({ name: 'proxy-upstream', version: '1.0.0' }, { capabilities: { logging: {}, tools: { listChanged: true } } });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const cancelled = [];

server.registerTool('echo', { description: 'Echo the given text back.', inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
server.registerTool('add_tool', { description: 'Add a tool of the given name.', inputSchema: { name: z.string() } }, async ({ name }) => {
  server.registerTool(name, { description: `A fresh tool called ${name}.`, inputSchema: {} }, async () => text(`${name} ran`));
  return text(`added ${name}`);
});
server.registerTool('log_later', { description: 'Send a log message a little after answering.', inputSchema: { message: z.string() } },
  async ({ message }) => {
    setTimeout(() => server.sendLoggingMessage({ level: 'info', data: message }), 300);
    return text('will log');
  });
server.registerTool('slow', { description: 'Wait until cancelled (at most ten minutes); write the file started, if given, on starting.',
  inputSchema: { started: z.string().optional() } }, async ({ started }, extra) => {
  if (started) writeFileSync(started, 'started');
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 600000);
    extra.signal.addEventListener('abort', () => {
      cancelled.push(extra.requestId);
      clearTimeout(timer);
      resolve();
    });
  });
  return text(extra.signal.aborted ? 'cancelled' : 'slept');
});
server.registerTool('cancellations', { description: 'The request ids whose cancellation arrived.', inputSchema: {} },
  async () => text(JSON.stringify(cancelled)));
server.registerTool('pid', { description: 'The process id of this server.', inputSchema: {} }, async () => text(String(process.pid)));

await server.connect(new StdioServerTransport());
