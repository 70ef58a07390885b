// HTTPS requests sent exactly as written, for what fetch (TestServer.request) cannot do: a path with
// dot segments (fetch resolves them), a body sent in parts under the test's control, a chosen
// agent or socket behaviour.
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body, null when empty or not JSON */
  body: any;
  /** the body as sent */
  text: string;
  /** header names with the case the server wrote them in */
  rawHeaders: string[];
}

function answerOf(res: IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: parsedOrNull(text), text, rawHeaders: res.rawHeaders.filter((_, i) => i % 2 === 0) }));
    res.on('error', reject);
  });
}

function parsedOrNull(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export interface RawRequest {
  method: string;
  /** sent as is: no resolving, no normalizing */
  path: string;
  token?: string;
  /** a JSON body, or its parts (then sent chunked, each part a write) */
  body?: unknown;
  chunks?: string[];
  agent?: https.Agent;
  headers?: Record<string, string>;
}

export function rawRequest(baseUrl: string, ca: string, r: RawRequest): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...r.headers };
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  if (r.body !== undefined || r.chunks) headers['content-type'] = 'application/json';
  if (r.chunks) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    const req = https.request(baseUrl, { method: r.method, path: r.path, ca, agent: r.agent ?? false, headers }, (res) => answerOf(res).then(resolve, reject));
    req.on('error', reject);
    for (const chunk of r.chunks ?? []) req.write(chunk);
    req.end(r.body === undefined ? undefined : JSON.stringify(r.body));
  });
}

export interface SlowRequest {
  /** resolves once the server has parsed the request (100 Continue): its handler is running */
  started: Promise<void>;
  /** sends the rest of the body */
  finish(rest: string): void;
  response: Promise<RawAnswer>;
}

/**
 * A POST whose body is sent in two parts under the caller's control. `Expect: 100-continue`
 * makes the server confirm it has the request before any body is sent; `first` goes then.
 */
export function slowPost(baseUrl: string, ca: string, path: string, token: string, first: string): SlowRequest {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const req = https.request(baseUrl, {
    method: 'POST',
    path,
    ca,
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', expect: '100-continue', 'transfer-encoding': 'chunked' },
  });
  const response = new Promise<RawAnswer>((resolve, reject) => {
    req.on('continue', () => {
      req.write(first);
      markStarted();
    });
    req.on('response', (res) => answerOf(res).then(resolve, reject));
    req.on('error', reject);
  });
  // a test that ends without awaiting it (the server went away) is not an unhandled rejection
  response.catch(() => {});
  return { started, finish: (rest) => req.end(rest), response };
}
