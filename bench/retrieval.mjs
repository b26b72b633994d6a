// Retrieval quality and latency through the real search endpoint.
// Usage: node bench/retrieval.mjs <baseUrl> <apiKey> <evalDir> [rounds] [moreEvalDirs...]
// Each eval file is a JSON-lines set of {q, relevant[], kind, filter?}; its domain is the file's corpus
// (mintlify-*.jsonl -> mintlify, stagehand-*.jsonl -> stagehand, dify-*.jsonl -> dify, demo-*.jsonl -> demo).
// ONLY=<domain> asks only that domain's files.
// Prints hit@5, MRR@10 and the misses per file, then search latency p50/p99 over every question x rounds.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [base, key, evalDir, roundsArg, ...moreDirs] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const route = (file) => '/' + file.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '').replace(/\/$/, '');

async function search(domain, q, filter) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${base}/v1/search/${domain}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: q, pageSize: 10, ...(filter ? { filter } : {}) }),
  });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  const results = await res.json();
  return { paths: results.map((r) => r.path), ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

const latencies = [];
const summary = [];
const files = [evalDir, ...moreDirs].flatMap((dir) =>
  readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.startsWith('answers-') // the answer evaluation's (bench/eval/answers.sh)
    && (!process.env.ONLY || f.startsWith(`${process.env.ONLY}-`)))
    .sort().map((file) => ({ dir, file })));
for (const { dir, file } of files) {
  const domain = file.split(/[-.]/)[0];
  const questions = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  let hits = 0, rr = 0;
  const misses = [];
  for (const { q, relevant, filter } of questions) {
    const wanted = new Set(relevant.map(route));
    const { paths } = await search(domain, q, filter);
    const rank = paths.findIndex((p) => wanted.has(p));
    if (rank >= 0 && rank < 5) hits++;
    if (rank >= 0) rr += 1 / (rank + 1);
    if (rank < 0 || rank >= 5) misses.push({ q, want: [...wanted][0], rank: rank < 0 ? '>10' : rank + 1, got: paths.slice(0, 3) });
  }
  summary.push({ file, questions: questions.length, 'hit@5': +(hits / questions.length).toFixed(3), 'MRR@10': +(rr / questions.length).toFixed(3) });
  for (const miss of misses) console.log(`miss ${file}: ${JSON.stringify(miss)}`);
  for (let r = 0; r < rounds; r++) {
    for (const { q, filter } of questions) latencies.push((await search(domain, q, filter)).ms);
  }
}
console.table(summary);
latencies.sort((a, b) => a - b);
if (!latencies.length) process.exit(0); // ROUNDS=0: quality only
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(2);
console.log(`search latency over ${latencies.length} requests (HTTP round trip, sequential): p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`);
