// ClamAV's clamd as the malware scanner (CLAMD_URL): each scan streams the file over one
// connection with the INSTREAM command, so clamd needs no access to our files.
// Protocol (clamd(8)): `zINSTREAM\0`, then chunks each led by its length as a 4-byte big-endian
// integer, then a zero length; clamd answers one NUL-terminated line and closes.
import { createReadStream } from 'node:fs';
import net from 'node:net';
import { type MalwareScanner, ScanError, type ScanVerdict } from './malware-scanner.ts';

export type ClamdAddress = { host: string; port: number } | { path: string };

/** tcp://host:port or unix:///path/to/clamd.ctl */
export function parseClamdUrl(url: string): ClamdAddress {
  const tcp = /^tcp:\/\/(\[[^\]]+\]|[^/:]+):(\d+)\/?$/.exec(url);
  if (tcp) return { host: tcp[1]!.replace(/^\[|\]$/g, ''), port: Number(tcp[2]) };
  const unix = /^unix:\/\/(\/.+)$/.exec(url);
  if (unix) return { path: unix[1]! };
  throw new Error(`CLAMD_URL must be tcp://host:port or unix:///path, not ${url}`);
}

/** clamd's INSTREAM chunks: large enough to keep the socket busy, small enough to bound memory */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends one NUL-terminated command, optionally followed by a payload writer, and resolves with
 * clamd's reply line. Connection failures and the deadline reject with ScanError.
 */
function converse(address: ClamdAddress, command: string, timeoutMs: number, payload?: (socket: net.Socket) => Promise<void>): Promise<string> {
  const where = 'path' in address ? address.path : `${address.host}:${address.port}`;
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(address);
    let reply = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new ScanError(`clamd at ${where} gave no verdict within ${timeoutMs} ms`, true))), timeoutMs);
    const answered = () => {
      const line = reply.replace(/\0[\s\S]*$/, '').trim();
      settle(() => (line ? resolve(line) : reject(new ScanError(`clamd at ${where} closed the connection without a reply`))));
    };
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      reply += text;
      if (reply.includes('\0')) answered();
    });
    socket.on('end', answered);
    let connected = false;
    socket.on('error', (error) => {
      // clamd answers, then closes on a stream it refuses (size limit) while we are still
      // writing: its reply is the news, our broken pipe is not. The reply can also be lost to
      // the reset, hence the hint.
      if (reply) answered();
      else if (!connected) settle(() => reject(new ScanError(`clamd at ${where} is unreachable: ${error.message}`)));
      else settle(() => reject(new ScanError(`clamd at ${where} dropped the connection while receiving the file (${error.message}); it does so with files over its StreamMaxLength`)));
    });
    socket.once('connect', () => {
      connected = true;
      socket.write(`z${command}\0`);
      payload?.(socket).catch((error: unknown) => settle(() => reject(error)));
    });
  });
}

/** resolves once the socket can take more, or is gone */
function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

async function streamFile(socket: net.Socket, file: string): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    if (socket.destroyed) return;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    socket.write(length);
    if (!socket.write(chunk)) await drained(socket);
  }
  // a zero length ends the stream
  if (!socket.destroyed) socket.write(Buffer.alloc(4));
}

/** Reads clamd's INSTREAM reply: `stream: OK`, `stream: <name> FOUND` or `<why> ERROR`. */
export function parseClamdReply(line: string): ScanVerdict {
  if (line === 'stream: OK') return { clean: true };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found) return { clean: false, signature: found[1]! };
  if (line.endsWith('ERROR')) throw new ScanError(`clamd could not scan the file: ${line.replace(/\s*ERROR$/, '')}`);
  throw new ScanError(`clamd answered something unexpected: ${line.slice(0, 200)}`);
}

/** clamd answers PONG when it is up and its signatures are loaded. */
export async function pingClamd(url: string, timeoutMs: number): Promise<boolean> {
  try {
    return (await converse(parseClamdUrl(url), 'PING', timeoutMs)) === 'PONG';
  } catch {
    return false;
  }
}

export function createClamdScanner(url: string): MalwareScanner {
  const address = parseClamdUrl(url);
  return {
    name: 'clamd',
    async scan(file: string, options: { timeoutMs: number }): Promise<ScanVerdict> {
      const line = await converse(address, 'INSTREAM', options.timeoutMs, (socket) => streamFile(socket, file));
      return parseClamdReply(line);
    },
  };
}
