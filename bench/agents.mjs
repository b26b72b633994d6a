// MCP search latency and llms-full.txt on a running service (bench/agents.sh starts it).
// Usage: node bench/agents.mjs <baseUrl> <domain> <questions.jsonl> [rounds]
// Sends each question as a tools/call of `search` to /sites/<domain>/mcp, one at a time, `rounds` times (the first
// round unmeasured: the JIT's), and reports p50/p99; then GETs llms-full.txt twice (made, then kept) and llms.txt.
import { readFileSync } from 'node:fs';

const [base, domain, questionsFile, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const questions = readFileSync(questionsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).q);
const mcp = `${base}/sites/${domain}/mcp`;
let id = 0;

async function search(query) {
  const started = process.hrtime.bigint();
  const response = await fetch(mcp, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'search', arguments: { query } } }),
  });
  const body = await response.json();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200 || body.error || body.result.isError) throw new Error(JSON.stringify(body));
  return ms;
}

async function get(path) {
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/sites/${domain}/${path}`);
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes };
}

const times = [];
for (let round = 0; round < rounds; round++) {
  for (const question of questions) {
    const ms = await search(question);
    if (round > 0) times.push(ms);
  }
}
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
console.log(`MCP search: ${times.length} calls (${questions.length} questions x ${rounds - 1} rounds after one unmeasured), `
  + `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
const made = await get('llms-full.txt');
const kept = await get('llms-full.txt');
const llms = await get('llms.txt');
console.log(`llms-full.txt: ${made.bytes} bytes, first ${made.ms.toFixed(1)} ms (made), then ${kept.ms.toFixed(1)} ms (kept)`);
console.log(`llms.txt: ${llms.bytes} bytes, ${llms.ms.toFixed(1)} ms`);
