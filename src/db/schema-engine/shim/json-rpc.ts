// JSON-RPC 2.0 over newline-delimited JSON, both directions on one pipe pair: the CLI sends
// requests on our stdin and reads responses on our stdout; we send our own requests (only `print`)
// on stdout and get the CLI's responses on stdin.
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcHandler = (method: string, params: unknown) => Promise<unknown>;

export class RpcError extends Error {
  override name = 'RpcError';
  readonly error: RpcErrorObject;

  constructor(error: RpcErrorObject) {
    super(error.message);
    this.error = error;
  }
}

interface IncomingMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

export const PARSE_ERROR = -32700;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

export class JsonRpcPeer {
  readonly #output: Writable;
  readonly #pending = new Map<string | number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 1;
  readonly closed: Promise<void>;

  /** `toErrorObject` turns a handler's exception into the error member of the response. */
  constructor(input: Readable, output: Writable, handle: RpcHandler, toErrorObject: (error: unknown) => RpcErrorObject) {
    this.#output = output;
    const lines = readline.createInterface({ input, crlfDelay: Infinity });
    lines.on('line', (line) => this.#receive(line, handle, toErrorObject));
    this.closed = new Promise((resolve) => lines.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const { reject } of this.#pending.values()) reject(new Error('The CLI closed the connection.'));
      this.#pending.clear();
    });
  }

  /** Sends a request to the other side and waits for its response. */
  request(method: string, params: unknown): Promise<unknown> {
    // our ids live in their own space (strings) so they never collide with the CLI's numbers
    const id = `shim-${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  #receive(line: string, handle: RpcHandler, toErrorObject: (error: unknown) => RpcErrorObject): void {
    if (!line.trim()) return;
    let message: IncomingMessage;
    try {
      message = JSON.parse(line) as IncomingMessage;
    } catch {
      this.#send({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error' } });
      return;
    }
    if (message.method === undefined && message.id !== undefined && message.id !== null) {
      this.#settle(message);
      return;
    }
    if (typeof message.method !== 'string') return;
    const id = message.id;
    const isNotification = id === undefined;
    handle(message.method, message.params).then(
      (result) => {
        if (!isNotification) this.#send({ jsonrpc: '2.0', id, result: result ?? null });
      },
      (error: unknown) => {
        if (!isNotification) this.#send({ jsonrpc: '2.0', id, error: toErrorObject(error) });
      },
    );
  }

  #settle(message: IncomingMessage): void {
    const waiting = this.#pending.get(message.id!);
    if (!waiting) return;
    this.#pending.delete(message.id!);
    if (message.error) waiting.reject(new RpcError(message.error));
    else waiting.resolve(message.result);
  }

  #send(message: object): void {
    this.#output.write(`${JSON.stringify(message)}\n`);
  }
}
