// Conformance client for POST /v1/assistant/{domain}/message.
//
// Usage: node v4-chat.mjs <baseUrl> <domain> <apiKey> <question1> <question2> [threadIdOnly]
// With `threadIdOnly`, the follow-up carries only `threadId`, read from the finish event, as Mintlify's
// documentation tells a widget to do (no `X-Thread-Key`).
//
// Drives the endpoint with the very SDK code the browser widget runs: Vercel AI SDK v4
// `useChat` (@ai-sdk/react@1.2.12, shipped with ai@4.3.19) with
//   streamProtocol: 'data', sendExtraMessageFields: true, maxSteps: 1 (default),
//   experimental_prepareRequestBody unset, headers: {Authorization: 'Bearer <key>'},
//   body: {fp, retrievalPageSize: 5} (+ threadId/threadKey on follow-ups).
// `useChat` is a React hook, so its non-React logic (append -> triggerRequest -> callChatApi)
// is reproduced below line for line from node_modules/@ai-sdk/react/dist/index.mjs; all
// parsing/message building is done by @ai-sdk/ui-utils itself (callChatApi ->
// processChatResponse -> processDataStream -> parseDataStreamPart), which throws on any
// unknown code, malformed JSON, invalid part shape or `3:` error part.
//
// Prints one JSON object {"turns":[...]} on stdout and exits 0; on any error prints the
// message and stack on stderr and exits 1. Gives up (exit 1) after 30 s.
import {
  callChatApi,
  fillMessageParts,
  generateId,
  getMessageParts,
  prepareAttachmentsForRequest,
} from '@ai-sdk/ui-utils';

const TIMEOUT_MS = 30_000;

function fail(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`${e.message}\n${e.stack ?? ''}\n${e.cause ? `cause: ${e.cause?.stack ?? e.cause}\n` : ''}`);
  process.exit(1);
}

process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);

const [baseUrl, domain, apiKey, question1, question2, mode] = process.argv.slice(2);
if ([baseUrl, domain, apiKey, question1, question2].some(a => a === undefined)) {
  fail(new Error('usage: node v4-chat.mjs <baseUrl> <domain> <apiKey> <question1> <question2>'));
}

let currentAbortController = null;
setTimeout(() => {
  currentAbortController?.abort();
  fail(new Error(`timed out after ${TIMEOUT_MS} ms`));
}, TIMEOUT_MS).unref();

const api = `${baseUrl.replace(/\/+$/, '')}/v1/assistant/${encodeURIComponent(domain)}/message`;

// ---- useChat options as configured by the widget -------------------------------------------
const hookOptions = {
  id: generateId(), // chat id (useChat: `id ?? useState(generateId)`)
  streamProtocol: 'data',
  sendExtraMessageFields: true,
  experimental_prepareRequestBody: undefined,
  credentials: undefined,
  headers: { Authorization: `Bearer ${apiKey}` },
  body: { fp: `fp-${generateId()}`, retrievalPageSize: 5 },
  generateId, // useChat default: generateId from @ai-sdk/ui-utils
};

// ---- useChat state (SWR cache in the browser) -----------------------------------------------
let messagesRef = fillMessageParts([]); // messagesRef.current
let streamDataRef = undefined; // streamDataRef.current (useChat's `data`)

// ---- per-request observation through a custom fetch (useChat's `fetch` option) --------------
let lastExchange = null;
async function recordingFetch(input, init) {
  const exchange = { requestBody: init?.body, response: null, rawText: null };
  lastExchange = exchange;
  const response = await globalThis.fetch(input, init);
  exchange.response = response;
  // Tee the body so the raw stream can be inspected (only for fields the SDK drops,
  // e.g. the `threadId` inside the `d:` finish part); the SDK reads the original.
  if (response.ok && response.body) {
    exchange.rawText = response.clone().text();
  }
  return response;
}

// ---- useChat.triggerRequest (sendExtraMessageFields: true, no prepareRequestBody) ----------
async function triggerRequest(chatRequest, requestType = 'generate') {
  const chatMessages = fillMessageParts(chatRequest.messages);
  const abortController = new AbortController();
  currentAbortController = abortController;
  messagesRef = chatMessages; // throttledMutate(chatMessages, false)
  const constructedMessagesPayload = hookOptions.sendExtraMessageFields
    ? chatMessages
    : chatMessages.map(({ role, content, experimental_attachments, data, annotations, toolInvocations, parts }) => ({
        role,
        content,
        ...(experimental_attachments !== undefined && { experimental_attachments }),
        ...(data !== undefined && { data }),
        ...(annotations !== undefined && { annotations }),
        ...(toolInvocations !== undefined && { toolInvocations }),
        ...(parts !== undefined && { parts }),
      }));
  const existingData = streamDataRef;
  const observed = { updates: 0, data: [], finish: null };

  await callChatApi({
    api,
    body:
      hookOptions.experimental_prepareRequestBody?.({
        id: hookOptions.id,
        messages: chatMessages,
        requestData: chatRequest.data,
        requestBody: chatRequest.body,
      }) ?? {
        id: hookOptions.id,
        messages: constructedMessagesPayload,
        data: chatRequest.data,
        ...hookOptions.body,
        ...chatRequest.body,
      },
    streamProtocol: hookOptions.streamProtocol,
    credentials: hookOptions.credentials,
    headers: { ...hookOptions.headers, ...chatRequest.headers },
    abortController: () => currentAbortController,
    restoreMessagesOnFailure() {
      /* keepLastMessageOnError = true -> nothing */
    },
    onResponse: undefined,
    onUpdate({ message, data, replaceLastMessage }) {
      observed.updates++;
      messagesRef = [...(replaceLastMessage ? chatMessages.slice(0, chatMessages.length - 1) : chatMessages), message];
      observed.data = data; // all `2:` items of this response so far
      if (data?.length) {
        streamDataRef = [...(existingData ?? []), ...data];
      }
    },
    onToolCall: undefined,
    onFinish(message, { usage, finishReason }) {
      observed.finish = { message, usage, finishReason };
    },
    generateId: hookOptions.generateId,
    fetch: recordingFetch,
    lastMessage: chatMessages[chatMessages.length - 1],
    requestType,
  });
  currentAbortController = null;
  // maxSteps = 1 (default) -> shouldResubmitMessages(...) is always false: no auto re-submit.
  return observed;
}

// ---- useChat.append -------------------------------------------------------------------------
async function append(message, { data, headers, body, experimental_attachments = message.experimental_attachments } = {}) {
  const attachmentsForRequest = await prepareAttachmentsForRequest(experimental_attachments);
  const messages = messagesRef.concat({
    ...message,
    id: message.id ?? hookOptions.generateId(),
    createdAt: message.createdAt ?? new Date(),
    experimental_attachments: attachmentsForRequest.length > 0 ? attachmentsForRequest : undefined,
    parts: getMessageParts(message),
  });
  return triggerRequest({ messages, headers, body, data });
}

// ---- one conversational turn ----------------------------------------------------------------
async function turn(question) {
  const observed = await append({ role: 'user', content: question });
  const { response, requestBody, rawText } = lastExchange;

  if (observed.finish == null) throw new Error('SDK did not call onFinish');
  const assistant = messagesRef[messagesRef.length - 1];
  if (observed.updates === 0 || assistant?.role !== 'assistant') {
    throw new Error('stream produced no assistant message (no onUpdate call)');
  }

  // threadId carried by the `d:` finish part: the SDK's parser drops unknown fields of
  // `d:` (finishMessageStreamPart keeps only finishReason/usage), so read it raw.
  let threadIdFromFinish;
  for (const line of (await rawText)?.split('\n') ?? []) {
    if (line.startsWith('d:')) threadIdFromFinish = JSON.parse(line.slice(2))?.threadId;
  }

  const finishDatum = [...observed.data].reverse().find(d => d && typeof d === 'object' && d.type === 'finish');
  const pick = name => response.headers.get(name);
  return {
    status: response.status,
    headers: {
      'content-type': pick('content-type'),
      'x-thread-id': pick('x-thread-id'),
      'x-thread-key': pick('x-thread-key'),
      'x-vercel-ai-data-stream': pick('x-vercel-ai-data-stream'),
    },
    threadIdFromData: finishDatum?.threadId ?? null,
    threadIdFromFinish: threadIdFromFinish ?? null,
    messageId: assistant.id,
    content: assistant.content,
    parts: assistant.parts,
    toolInvocations: assistant.toolInvocations ?? null,
    annotations: assistant.annotations ?? null,
    finishReason: observed.finish.finishReason,
    usage: observed.finish.usage,
    data: observed.data,
    requestBody: JSON.parse(requestBody),
  };
}

try {
  const t1 = await turn(question1);
  if (mode === 'threadIdOnly') {
    if (!t1.threadIdFromFinish) throw new Error('turn 1: no threadId in the finish event');
    hookOptions.body = { ...hookOptions.body, threadId: t1.threadIdFromFinish };
  } else {
    const threadId = t1.headers['x-thread-id'] ?? t1.threadIdFromData;
    const threadKey = t1.headers['x-thread-key'];
    if (!threadId) throw new Error('turn 1: no thread id (neither X-Thread-Id header nor finish data)');
    if (!threadKey) throw new Error('turn 1: no X-Thread-Key header');
    // Widget keeps the thread in the hook-level `body` for follow-ups.
    hookOptions.body = { ...hookOptions.body, threadId, threadKey };
  }
  const t2 = await turn(question2);
  process.stdout.write(JSON.stringify({ turns: [t1, t2] }) + '\n', () => process.exit(0));
} catch (err) {
  fail(err);
}
