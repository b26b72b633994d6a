// MCP search latency and llms-full.txt on a running service (bench/agents.sh starts it).
// Usage: node bench/agents.mjs <baseUrl> <domain> <questions.jsonl> <key> [rounds]
// Sends each question as a tools/call of `search` to /sites/<domain>/mcp and, paired with it, to the discovery API's
// POST /v1/search/<domain> (the same search, with the key), one at a time, `rounds` times (the first round
// unmeasured: the JIT's), and reports p50/p99 of each and their ratio; then GETs llms-full.txt twice (made, then
// kept) and llms.txt.
import { readFileSync } from 'node:fs';

const [base, domain, questionsFile, key, roundsArg] = process.argv.slice(2);
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

async function discovery(query) {
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/v1/search/${domain}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, pageSize: 8 }),
  });
  await response.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`/v1/search: ${response.status}`);
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
const paired = [];
for (let round = 0; round < rounds; round++) {
  for (const question of questions) {
    const ms = await search(question);
    const other = await discovery(question);
    if (round > 0) {
      times.push(ms);
      paired.push(other);
    }
  }
}
const percentile = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))];
const line = (name, list) => `${name}: ${list.length} calls, p50 ${percentile(list, 0.5).toFixed(1)} ms, `
  + `p99 ${percentile(list, 0.99).toFixed(1)} ms`;
console.log(`${questions.length} questions x ${rounds - 1} rounds after one unmeasured, MCP and /v1/search alternating`);
console.log(line('MCP search', times));
console.log(line('/v1/search (paired)', paired));
console.log(`MCP / v1 search, p50 ${(percentile(times, 0.5) / percentile(paired, 0.5)).toFixed(3)}, `
  + `p99 ${(percentile(times, 0.99) / percentile(paired, 0.99)).toFixed(3)}`);
const made = await get('llms-full.txt');
const kept = await get('llms-full.txt');
const llms = await get('llms.txt');
console.log(`llms-full.txt: ${made.bytes} bytes, first ${made.ms.toFixed(1)} ms (made), then ${kept.ms.toFixed(1)} ms (kept)`);
console.log(`llms.txt: ${llms.bytes} bytes, ${llms.ms.toFixed(1)} ms`);
