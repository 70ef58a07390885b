// A real local model server for tests: node:http on 127.0.0.1, speaking the OpenAI Chat Completions
// protocol, so the AI layer (and every feature built on it) is tested through its real HTTP client
// rather than a mocked SDK.
//
//   const model = await startModelServer();
//   // settings: AI_BASE_URL=model.baseUrl, AI_MODEL=<anything>; requests go to `${model.baseUrl}/chat/completions`
//   model.reply({ text: 'Hello there' });                                  // one answer, queued
//   model.reply({ toolCalls: [{ name: 'find_records', arguments: { q: 'x' } }] });
//   model.reply({ error: { status: 429, message: 'slow down' } }, { text: 'ok' });  // several, in order
//   model.reply((body) => ({ text: `you said ${body.messages.at(-1)?.content}` }));  // decided per request
//   model.otherwise({ text: 'fallback' });    // answers once the queue is empty (default: 418, "no reply scripted")
//   model.requests[0].body.tools             // what the client sent: body, path, Authorization header
//   model.reset();                           // between tests sharing one server
//   await model.close();
//
// Each request takes the next queued reply. A reply is, by precedence:
//   - `hang: true`: headers never sent; the request stays open until the client aborts (or close());
//   - `error`: that HTTP status with an OpenAI error body `{ error: { message, type, code, param } }`;
//   - `raw`: that body as it is (to test malformed answers);
//   - otherwise an answer: `text` and/or `toolCalls`, as one `chat.completion` JSON object, or, when
//     the request says `stream: true`, as server-sent `chat.completion.chunk` events (text split
//     into pieces, each tool call's arguments in several pieces) ending with `data: [DONE]`, with a
//     usage chunk when the request asks for it (`stream_options.include_usage`).
// `delayMs` waits before answering (any kind); `chunkDelayMs` waits between streamed chunks;
// `cutAfter` drops the connection part way (after that many streamed events; 0: without any answer).
// Usage defaults to a rough count (4 characters a token) of the request's messages and of the answer.
// An unscripted request (empty queue, no `otherwise`) is answered 418, which no client retries.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ScriptedToolCall {
  /** default `call_<n>` */
  id?: string;
  name: string;
  /** an object is sent as its JSON text; a string is sent as it is (so it may be invalid JSON) */
  arguments: unknown;
}

export interface ModelReply {
  /** the assistant's text */
  text?: string;
  /** how a streamed `text` is cut into deltas (default: word by word) */
  textChunks?: string[];
  /** calls the model asks the client to run (with `text`, both are sent) */
  toolCalls?: ScriptedToolCall[];
  /** default `tool_calls` with tool calls, else `stop` */
  finishReason?: string;
  /** reported usage (default: about 4 characters a token of the request's messages and of the answer) */
  usage?: { promptTokens: number; completionTokens: number };
  /** an error answer: that status, an OpenAI error body, and `headers` (e.g. `retry-after`) */
  error?: { status: number; message: string; type?: string; code?: string; headers?: Record<string, string> };
  /** never answer: the request stays open until the client gives up (or close()) */
  hang?: boolean;
  /** sent as it is instead of an answer: a malformed body (`stream` requests get it as an event stream's text) */
  raw?: { status?: number; body: string };
  /** the connection is cut after this many streamed events (0: before any answer, streaming or not) */
  cutAfter?: number;
  /** wait this long before answering */
  delayMs?: number;
  /** wait this long after each streamed event */
  chunkDelayMs?: number;
}

/** the JSON body of a Chat Completions request, as the client sent it */
export interface ChatCompletionBody {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  [key: string]: unknown;
}

export interface ReceivedModelRequest {
  path: string;
  body: ChatCompletionBody;
  /** the Authorization header, when sent */
  authorization: string | undefined;
  /** set once the client's closed connection is noticed, before the answer was complete (not when `cutAfter` cut it) */
  abortedByClient: boolean;
}

export type ReplyScript = ModelReply | ((body: ChatCompletionBody, index: number) => ModelReply);

export interface ModelServer {
  /** `http://127.0.0.1:<port>/v1`: the endpoint is `${baseUrl}/chat/completions` */
  baseUrl: string;
  /** every request received, in order */
  requests: ReceivedModelRequest[];
  /** queues replies for the next requests, in order */
  reply(...replies: ReplyScript[]): void;
  /** the reply once the queue is empty (default: a 418 error, so an unscripted request fails visibly and is not retried) */
  otherwise(reply: ReplyScript): void;
  /** queued replies not yet used */
  pending(): number;
  /** forgets queued replies, recorded requests and `otherwise` (between tests sharing one server) */
  reset(): void;
  close(): Promise<void>;
}

const ENDPOINTS = new Set(['/chat/completions', '/v1/chat/completions']);
/** responses this server cut on purpose: not the client's doing */
const cutByServer = new WeakSet<http.ServerResponse>();
const NO_REPLY: ModelReply = { error: { status: 418, message: 'model server: no reply scripted for this request', type: 'test_error' } };

export async function startModelServer(): Promise<ModelServer> {
  const requests: ReceivedModelRequest[] = [];
  const queue: ReplyScript[] = [];
  let fallback: ReplyScript = NO_REPLY;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method !== 'POST' || !ENDPOINTS.has(path)) {
        sendError(res, { status: 404, message: `model server: no route ${req.method} ${path}` });
        return;
      }
      let body: ChatCompletionBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        sendError(res, { status: 400, message: 'model server: the body is not JSON' });
        return;
      }
      const received: ReceivedModelRequest = { path, body, authorization: req.headers.authorization, abortedByClient: false };
      requests.push(received);
      res.on('close', () => {
        if (!res.writableFinished && !cutByServer.has(res)) received.abortedByClient = true;
      });
      const script = queue.shift() ?? fallback;
      let reply: ModelReply;
      try {
        reply = typeof script === 'function' ? script(body, requests.length - 1) : script;
      } catch (error) {
        // a test's own mistake: answered (and not retried) rather than crashing the test process
        reply = { error: { status: 418, message: `model server: the reply function threw: ${String(error)}`, type: 'test_error' } };
      }
      void answer(res, body, reply).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    otherwise: (reply) => void (fallback = reply),
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fallback = NO_REPLY;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(res: http.ServerResponse, body: ChatCompletionBody, reply: ModelReply): Promise<void> {
  if (reply.hang) return; // the client's abort (or close()) ends it
  if (reply.delayMs) await sleep(reply.delayMs);
  if (res.destroyed) return;
  if (reply.cutAfter === 0) {
    cutByServer.add(res);
    res.destroy();
    return;
  }
  if (reply.error) {
    sendError(res, reply.error);
    return;
  }
  if (reply.raw) {
    res.writeHead(reply.raw.status ?? 200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
    res.end(reply.raw.body);
    return;
  }
  const completion = completionOf(body, reply);
  if (body.stream) await stream(res, body, completion, reply);
  else sendJson(res, 200, completion.json());
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: http.ServerResponse, error: NonNullable<ModelReply['error']>) {
  sendJson(res, error.status, { error: { message: error.message, type: error.type ?? 'invalid_request_error', param: null, code: error.code ?? null } }, error.headers);
}

let completionCount = 0;

/** one answer in both of its wire forms */
function completionOf(body: ChatCompletionBody, reply: ModelReply) {
  const id = `chatcmpl-${++completionCount}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model;
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${completionCount}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const text = reply.text ?? '';
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const promptTokens = reply.usage?.promptTokens ?? Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = reply.usage?.completionTokens ?? Math.ceil((text.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)) / 4);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const wireToolCalls = toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return {
    id, created, model, text, toolCalls, finishReason, usage,
    json: () => ({
      id, object: 'chat.completion', created, model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null, ...(wireToolCalls.length > 0 ? { tool_calls: wireToolCalls } : {}) }, finish_reason: finishReason }],
      usage,
    }),
    chunk: (choice: object | null, extra: object = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra }),
  };
}

async function stream(res: http.ServerResponse, body: ChatCompletionBody, completion: ReturnType<typeof completionOf>, reply: ModelReply) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let sent = 0;
  const send = async (value: unknown) => {
    if (res.destroyed) throw new Error('client went away');
    if (sent++ === reply.cutAfter) {
      cutByServer.add(res);
      res.destroy();
      throw new Error('connection cut as scripted');
    }
    res.write(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  };
  await send(completion.chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
  for (const piece of reply.textChunks ?? completion.text.match(/\S+\s*|\s+/g) ?? []) {
    await send(completion.chunk({ delta: { content: piece }, finish_reason: null }));
  }
  for (const [index, call] of completion.toolCalls.entries()) {
    await send(completion.chunk({ delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }));
    for (const piece of piecesOf(call.arguments, 3)) {
      await send(completion.chunk({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }));
    }
  }
  await send(completion.chunk({ delta: {}, finish_reason: completion.finishReason }));
  if (body.stream_options?.include_usage) await send(completion.chunk(null, { usage: completion.usage }));
  await send('[DONE]');
  res.end();
}

/** `text` cut into at most `count` pieces of about equal length */
function piecesOf(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}
