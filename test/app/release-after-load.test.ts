// Memory after load has gone (src/app/http/release-after-load.ts, src/app/native-heap.ts): a
// release runs once after many WebSocket closes, many megabytes read by HTTP connections that
// closed, or many requests on kept-alive connections, followed by a pause, not per close; once after start (the garbage of loading); again at rest; and malloc_trim really hands freed native memory
// back to the system.
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { releaseMemoryAfterLoad } from '../../src/app/http/release-after-load.ts';
import { trimNativeHeap } from '../../src/app/native-heap.ts';
import { until } from '../support/until.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function wsServer(): Promise<{ wss: WebSocketServer; server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => (wss.close(), server.closeAllConnections(), server.close(() => resolve()))));
  return { wss, server, url: `ws://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** POSTs `megabytes` of body on a connection of its own, closed after the answer */
async function postAndLeave(url: string, megabytes: number): Promise<void> {
  const response = await fetch(url.replace('ws:', 'http:'), { method: 'POST', body: Buffer.alloc(megabytes * 1024 * 1024, 1), headers: { connection: 'close' } });
  await response.text();
}

async function connectAndLeave(url: string, count: number): Promise<void> {
  const clients = await Promise.all(
    Array.from({ length: count }, () => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    })),
  );
  await Promise.all(clients.map((ws) => new Promise((resolve) => (ws.once('close', resolve), ws.close()))));
}

it('releases once after start, with no load at all', async () => {
  const { wss } = await wsServer();
  let releases = 0;
  releaseMemoryAfterLoad({ ws: wss }, { afterStartMs: 200, release: () => releases++ });
  expect(releases).toBe(0);
  await until('the release after start', () => releases === 1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(releases).toBe(1);
});

it('releases once after many connections closed and closing paused, not for a few', async () => {
  const { wss, url } = await wsServer();
  let releases = 0;
  releaseMemoryAfterLoad({ ws: wss }, { closes: 50, quietMs: 300, afterStartMs: 0, release: () => releases++ });
  await connectAndLeave(url, 20);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(releases).toBe(0); // 20 closes are not worth it
  await connectAndLeave(url, 40);
  await until('the release', () => releases === 1);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(releases).toBe(1); // once for the crowd, then nothing until the next one
});

it('releases once after HTTP connections that read many megabytes closed, not after a few', async () => {
  const { wss, server, url } = await wsServer();
  let releases = 0;
  releaseMemoryAfterLoad({ ws: wss, http: server }, { bytes: 8 * 1024 * 1024, quietMs: 300, afterStartMs: 0, release: () => releases++ });
  await postAndLeave(url, 2);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(releases).toBe(0); // 2 MiB are not worth it
  await Promise.all([postAndLeave(url, 4), postAndLeave(url, 4)]);
  await until('the release', () => releases === 1);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(releases).toBe(1);
});

it('releases again at rest, at most once an idle period, and not while requests keep coming', async () => {
  const { wss, server, url } = await wsServer();
  let releases = 0;
  releaseMemoryAfterLoad({ ws: wss, http: server }, { requests: 1_000_000, quietMs: 100, idleMs: 500, afterStartMs: 0, release: () => releases++ });
  await until('a release at rest', () => releases === 1);
  const first = Date.now();
  await until('the next one', () => releases === 2);
  expect(Date.now() - first).toBeGreaterThanOrEqual(400);
  // a request every 30 ms: no look finds the server quiet
  const agent = new http.Agent({ keepAlive: true });
  cleanups.push(async () => agent.destroy());
  const before = releases;
  const started = Date.now();
  while (Date.now() - started < 1200) {
    await new Promise<void>((resolve, reject) => http.get(url.replace('ws:', 'http:'), { agent }, (res) => (res.resume(), res.on('end', resolve))).on('error', reject));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  expect(releases).toBe(before);
});

it('releases once after many requests on connections kept open, once they paused, not after a few', async () => {
  const { wss, server, url } = await wsServer();
  let releases = 0;
  releaseMemoryAfterLoad({ ws: wss, http: server }, { requests: 200, quietMs: 300, afterStartMs: 0, release: () => releases++ });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  cleanups.push(async () => agent.destroy());
  const get = () => new Promise<void>((resolve, reject) => http.get(url.replace('ws:', 'http:'), { agent }, (res) => (res.resume(), res.on('end', resolve))).on('error', reject));
  const burst = async (count: number) => {
    for (let i = 0; i < count; i += 4) await Promise.all([get(), get(), get(), get()]);
  };
  await burst(100);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toBe(0); // 100 requests are not worth it
  // requests that keep coming hold the release back until they pause
  const started = Date.now();
  while (Date.now() - started < 700) await burst(20);
  expect(releases).toBe(0);
  await until('the release', () => releases === 1);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toBe(1);
});

it('malloc_trim gives freed native memory back (glibc)', () => {
  trimNativeHeap(); // loads the library first, so its own pages are not in the comparison
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const rss = () => process.memoryUsage().rss;
  // 64 MiB in 4 KiB malloc'd blocks; every 16th kept, so the free ones sit between live ones and
  // glibc cannot give them back by shrinking its heap
  let blocks: (Buffer | null)[] = Array.from({ length: 16_384 }, () => Buffer.alloc(4096, 1));
  const kept = blocks.filter((_, i) => i % 16 === 0);
  blocks = [];
  gc();
  gc();
  const before = rss();
  expect(trimNativeHeap()).toBe(true); // this platform (Debian, glibc) has it
  const after = rss();
  expect(kept.length).toBe(1024);
  expect(before - after).toBeGreaterThan(16 * 1024 * 1024);
});
