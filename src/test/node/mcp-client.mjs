// Conformance client for the MCP server at /sites/{domain}/mcp: the official MCP TypeScript SDK's
// Client over its StreamableHTTPClientTransport, as Claude Desktop, Cursor and VS Code connect.
//
// Usage: node mcp-client.mjs <mcpUrl> <calls>
//   <calls>: a JSON array of tool calls, [{"name": "search", "arguments": {...}}, ...]
//
// Connects (initialize, notifications/initialized), lists the tools, makes each call in order with
// client.callTool (which checks a result's structuredContent against the tool's outputSchema),
// and prints one JSON object on stdout: {"server", "protocolVersion", "tools", "results"}; a call
// whose result is an error is printed as it came ({"isError": true, ...}). If connecting fails
// (the server refused), prints {"connectError": "<message>"}. Exits 1 on anything else; gives up
// after 30 s.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const TIMEOUT_MS = 30_000;
setTimeout(() => { process.stderr.write('timed out\n'); process.exit(1); }, TIMEOUT_MS).unref();

const [url, callsJson] = process.argv.slice(2);
const calls = JSON.parse(callsJson ?? '[]');
// Resolves once the text is flushed: to a pipe, stdout writes asynchronously, and process.exit() would cut it at 64 KiB.
const print = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
const client = new Client({ name: 'docs-assistant-conformance', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
try {
  await client.connect(transport);
} catch (err) {
  await print(JSON.stringify({ connectError: String(err?.message ?? err) }));
  process.exit(0);
}
try {
  const tools = await client.listTools();
  const results = [];
  for (const call of calls) {
    results.push(await client.callTool(call));
  }
  await print(JSON.stringify({
    server: client.getServerVersion(),
    protocolVersion: transport.protocolVersion ?? null,
    tools: tools.tools,
    results,
  }));
  await client.close();
  process.exit(0);
} catch (err) {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
