// Conformance client for POST /v2/assistant/{domain}/message.
//
// Usage: node v5-chat.mjs <package> <baseUrl> <domain> <apiKey> <question1> <question2>
//   <package>: one of the AI SDK versions package.json installs under an alias
//              (ai-v5-0-0, ai-v5, ai-v6, ai-v7).
//
// Drives the endpoint with the code `useChat` runs (AI SDK v5 and later): the SDK's own
// AbstractChat (sendMessage -> makeRequest -> processUIMessageStream) and DefaultChatTransport
// (POST {id, messages, trigger, messageId, ...body}; parses the SSE stream with the SDK's chunk
// schema), configured as a widget would:
//   new DefaultChatTransport({api, headers: {Authorization}, body: {fp, retrievalPageSize: 5},
//                             fetch: <reads X-Thread-Key, which the SDK does not expose>})
// Only React is left out: the chat state below is @ai-sdk/react's ReactChatState without the
// subscription callbacks (messages replaced immutably, snapshots by structuredClone).
// The thread id is read where a widget reads it, from the assistant message's metadata; the
// second turn continues the thread with sendMessage(..., {body: {threadId, threadKey}}).
//
// Prints one JSON object {"version", "turns":[...]} on stdout and exits 0; on any error (the
// SDK rejecting a chunk, an error chunk, a non-2xx answer) prints it on stderr and exits 1.
// Gives up (exit 1) after 30 s.
const TIMEOUT_MS = 30_000;

function fail(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  const message = e.message.length > 2000 ? `${e.message.slice(0, 2000)}…` : e.message; // zod lists every union arm
  process.stderr.write(`${message}\n${e.stack ?? ''}\n${e.cause ? `cause: ${e.cause?.stack ?? e.cause}\n` : ''}`);
  process.exit(1);
}

process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);

const [pkg, baseUrl, domain, apiKey, question1, question2] = process.argv.slice(2);
if ([pkg, baseUrl, domain, apiKey, question1, question2].some(a => a === undefined)) {
  fail(new Error('usage: node v5-chat.mjs <package> <baseUrl> <domain> <apiKey> <question1> <question2>'));
}
setTimeout(() => fail(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref();

const { AbstractChat, DefaultChatTransport, generateId } = await import(pkg);
const { version } = (await import(`${pkg}/package.json`, { with: { type: 'json' } })).default;

// ---- @ai-sdk/react's ReactChatState, minus React's change notifications ---------------------
class ChatState {
  #messages;
  status = 'ready';
  error = undefined;
  constructor(messages = []) {
    this.#messages = messages;
  }
  get messages() {
    return this.#messages;
  }
  set messages(messages) {
    this.#messages = [...messages];
  }
  pushMessage = message => {
    this.#messages = this.#messages.concat(message);
  };
  popMessage = () => {
    this.#messages = this.#messages.slice(0, -1);
  };
  replaceMessage = (index, message) => {
    this.#messages = [...this.#messages.slice(0, index), this.snapshot(message), ...this.#messages.slice(index + 1)];
  };
  snapshot = value => structuredClone(value);
}

class Chat extends AbstractChat {
  constructor({ messages, ...init }) {
    super({ ...init, state: new ChatState(messages) });
  }
}

// ---- what each request looked like, through the transport's `fetch` option ----------------
let lastExchange = null;
async function recordingFetch(input, init) {
  const exchange = { requestBody: init?.body, response: null, rawText: null };
  lastExchange = exchange;
  const response = await globalThis.fetch(input, init);
  exchange.response = response;
  if (response.ok && response.body) {
    exchange.rawText = response.clone().text(); // the SDK reads the original
  }
  return response;
}

const errors = [];
const chat = new Chat({
  id: generateId(),
  transport: new DefaultChatTransport({
    api: `${baseUrl.replace(/\/+$/, '')}/v2/assistant/${encodeURIComponent(domain)}/message`,
    headers: { Authorization: `Bearer ${apiKey}` },
    body: { fp: `fp-${generateId()}`, retrievalPageSize: 5 },
    fetch: recordingFetch,
  }),
  onError: error => errors.push(error),
});

function chunks(raw) {
  return raw
    .split('\n\n')
    .filter(event => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map(event => JSON.parse(event.slice('data: '.length)));
}

async function turn(question, options) {
  await chat.sendMessage({ text: question }, options);
  if (errors.length > 0 || chat.status !== 'ready') {
    throw new Error(`turn '${question}': status ${chat.status}: ${errors.map(String).join('\n')}`);
  }
  const { response, requestBody, rawText } = lastExchange;
  const raw = await rawText;
  const assistant = chat.lastMessage;
  if (assistant?.role !== 'assistant') throw new Error('the stream produced no assistant message');
  const pick = name => response.headers.get(name);
  return {
    status: response.status,
    headers: Object.fromEntries(
      ['content-type', 'cache-control', 'x-vercel-ai-ui-message-stream', 'x-accel-buffering', 'x-thread-id',
        'x-thread-key'].map(name => [name, pick(name)]),
    ),
    requestBody: JSON.parse(requestBody),
    message: assistant,
    text: assistant.parts.filter(p => p.type === 'text').map(p => p.text).join(''),
    chunkTypes: chunks(raw).map(c => c.type),
    endsWithDone: raw.endsWith('data: [DONE]\n\n'),
  };
}

try {
  const t1 = await turn(question1);
  const threadId = t1.message.metadata?.threadId;
  const threadKey = t1.headers['x-thread-key'];
  if (!threadId) throw new Error('turn 1: no threadId in the assistant message metadata');
  if (!threadKey) throw new Error('turn 1: no X-Thread-Key header');
  const t2 = await turn(question2, { body: { threadId, threadKey } });
  process.stdout.write(JSON.stringify({ version, turns: [t1, t2] }) + '\n', () => process.exit(0));
} catch (err) {
  fail(err);
}
