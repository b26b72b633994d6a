// The AI SDK v4 peer of bench/perf.sh: POST /v1/assistant/{domain}/message written the way a team writes it with
// the AI SDK (ai@4.3.19, @ai-sdk/openai, MiniSearch), in one Node process, so the service's throughput has a
// yardstick measured in the same run against the same stub.
//   node bench/peer/server.mjs PORT DOMAIN DOCS_DIR BASE_URL KEY
// It checks the bearer key, reads the widget's body, finds the retrievalPageSize best sections of DOCS_DIR's
// .md/.mdx pages (MiniSearch, indexed at start; results kept for the last 1,000 questions, as the service keeps
// its own), asks the model at BASE_URL (streamText) with each excerpt cut to 2,000 characters (as the service cuts
// a search hit's content) and answers in the data stream protocol: the sources, then the model's parts
// (pipeDataStreamToResponse). It prints "peer ready" when it listens.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, relative } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { convertToCoreMessages, pipeDataStreamToResponse, streamText } from 'ai';
import MiniSearch from 'minisearch';

const [port, domain, docs, baseURL, key] = process.argv.slice(2);
const openai = createOpenAI({ baseURL, apiKey: 'sk-bench', compatibility: 'strict' }); // strict: usage is streamed
const EXCERPT_CHARS = 2000;
const KEPT_SEARCHES = 1000;
const system = 'You answer questions about the documentation below. Cite the pages you use.';

// One document per section: a page split at its headings, titled by its frontmatter and the heading.
function* pages(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') yield* pages(path);
    else if (/\.mdx?$/.test(entry.name)) yield path;
  }
}
const sections = [];
for (const file of pages(docs)) {
  const route = '/' + relative(docs, file).replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '');
  let text = readFileSync(file, 'utf8');
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const title = front && /^title:\s*["']?(.*?)["']?\s*$/m.exec(front[1])?.[1] || route;
  if (front) text = text.slice(front[0].length);
  for (const part of text.split(/\n(?=#{1,3} )/)) {
    const heading = /^#{1,3} (.*)/.exec(part)?.[1] ?? '';
    const anchor = heading.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    sections.push({ id: sections.length, title, heading, text: part, url: anchor ? `${route}#${anchor}` : route });
  }
}
const index = new MiniSearch({
  fields: ['title', 'heading', 'text'],
  storeFields: ['title', 'url', 'text'],
  searchOptions: { boost: { title: 2, heading: 1.5 } },
});
index.addAll(sections);
const searches = new Map(); // least recently asked first
function search(question, size) {
  const key = `${size}\n${question}`;
  let hits = searches.get(key);
  if (hits) searches.delete(key);
  else hits = index.search(question).slice(0, size);
  searches.set(key, hits);
  if (searches.size > KEPT_SEARCHES) searches.delete(searches.keys().next().value);
  return hits;
}

function fail(res, status, detail) {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ status, detail }));
}

createServer(async (req, res) => {
  const path = /^\/v1\/assistant\/([^/]+)\/message$/.exec(req.url);
  if (!path || req.method !== 'POST') return fail(res, 404, 'not found');
  if (req.headers.authorization !== `Bearer ${key}`) return fail(res, 401, 'unknown key');
  if (path[1] !== domain) return fail(res, 404, 'unknown domain');
  let body;
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return fail(res, 400, 'the body is not JSON');
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const question = messages.at(-1);
  if (question?.role !== 'user' || typeof question.content !== 'string' || !question.content) {
    return fail(res, 400, 'the last message must be a user message with text');
  }
  const hits = search(question.content, Math.min(Number(body.retrievalPageSize) || 5, 20));
  const excerpts = hits.map((hit, i) => `[${i + 1}] ${hit.title} (${hit.url})\n${hit.text.slice(0, EXCERPT_CHARS)}`)
    .join('\n\n');
  pipeDataStreamToResponse(res, {
    execute(stream) {
      for (const hit of hits) stream.writeSource({ sourceType: 'url', id: hit.url, url: hit.url, title: hit.title });
      streamText({
        model: openai('gpt-4o-mini'),
        system: `${system}\n\n# Documentation excerpts\n\n${excerpts}`,
        messages: convertToCoreMessages(messages),
      }).mergeIntoDataStream(stream);
    },
    onError: () => 'The model failed.',
  });
}).listen(Number(port), '127.0.0.1', () =>
  console.log(`peer ready on 127.0.0.1:${port}: ${sections.length} sections of ${docs}`));
