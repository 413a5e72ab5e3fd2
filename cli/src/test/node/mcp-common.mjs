// What the MCP client scripts here share (mcp-client.mjs, proxy-client.mjs, proxy-forward.mjs, proxy-live.mjs).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** One JSON line on stdout: what the Java test reads back. */
export const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');

/** The text parts of a tool result, joined. */
export const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

/** `--url URL`: Streamable HTTP; `-- COMMAND ARGS...`: stdio (the client starts the server). */
export const transportFrom = (mode, rest) => mode === '--url'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });

export const newClient = (name) => new Client({ name, version: '1.0.0' });

/** Prints the server's name and version, then its tools; returns the tools. */
export async function printServerAndTools(client) {
  print({ server: client.getServerVersion() });
  const { tools } = await client.listTools();
  print({ tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) });
  return tools;
}
