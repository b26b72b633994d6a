// The upstream stub on node:http (issue 56): bench's UpstreamStub (Vert.x, a JVM) answered 2,000 streams with a TTFB
// p99 of 75 ms on a loaded 2-core machine, its own JIT and GC in the figure; this one is the floor the service's tail
// is compared with (STUB=node bench/perf.sh …). The same events as UpstreamStub, exactly as OpenAI sends them: a role
// chunk, one chunk per token DELAY_MS apart (the first after FIRST_DELAY_MS), the finish chunk, the usage chunk when
// stream_options.include_usage asks for it, then [DONE].
// Usage: node bench/peer/stub.mjs PORT TOKENS DELAY_MS FIRST_DELAY_MS
import http from 'node:http';

const [port, tokens, delayMs, firstDelayMs] = process.argv.slice(2).map(Number);
const model = 'gpt-4o-mini-2024-07-18';
let ids = 0;

const server = http.createServer((request, response) => {
  if (!request.url.endsWith('/chat/completions')) {
    response.writeHead(404).end();
    return;
  }
  const body = [];
  request.on('data', (part) => body.push(part));
  request.on('end', () => answer(response, /"include_usage"\s*:\s*true/.test(Buffer.concat(body).toString())));
});

function answer(response, usage) {
  const head = `data: {"id":"chatcmpl-${++ids}","object":"chat.completion.chunk","created":${Math.floor(Date.now() / 1000)},`
    + `"model":"${model}","service_tier":"default","system_fingerprint":"fp_stub","choices":`;
  // a chunk before the last: with usage asked for, OpenAI sends "usage":null in each
  const chunk = (choices) => write(usage ? `${choices.slice(0, -1)},"usage":null}` : choices);
  const write = (rest) => response.writableEnded || response.destroyed || response.write(`${head}${rest}\n\n`);
  let sent = 0;
  let timer;
  response.on('close', () => clearTimeout(timer));
  response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
  const next = () => {
    if (sent === 0) {
      chunk('[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}');
    }
    do {
      if (sent === tokens) {
        chunk('[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}');
        if (usage) {
          write(`[],"usage":{"prompt_tokens":512,"completion_tokens":${tokens},"total_tokens":${512 + tokens}}}`);
        }
        if (!response.destroyed) response.end('data: [DONE]\n\n');
        return;
      }
      chunk(`[{"index":0,"delta":{"content":"${sent === 0 ? 'Token' : ' token'}${sent}"},"logprobs":null,"finish_reason":null}]}`);
      sent++;
    } while (delayMs === 0);
    timer = setTimeout(next, delayMs);
  };
  if (firstDelayMs > 0) {
    response.flushHeaders();
    timer = setTimeout(next, firstDelayMs);
  } else {
    next();
  }
}

server.keepAliveTimeout = 0;
server.requestTimeout = 0;
server.listen(port, '127.0.0.1', () => {
  console.log(`stub ready on 127.0.0.1:${port} (${tokens} tokens, ${delayMs} ms apart, first after ${firstDelayMs} ms, node:http)`);
});
