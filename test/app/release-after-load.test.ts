// Memory after load has gone (src/app/http/release-after-load.ts, src/app/native-heap.ts): a full
// release runs once after many WebSocket closes or many megabytes of large bodies, followed by a
// pause, not per close; once after start (the garbage of loading); after a load only once the server
// has been at rest (a light one, without the collection, as soon as the load pauses); again at rest;
// and malloc_trim really hands freed native memory back to the system.
import type { ReleaseKind } from '../../src/app/http/release-after-load.ts';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { releaseMemoryAfterLoad } from '../../src/app/http/release-after-load.ts';
import { trimNativeHeap } from '../../src/app/native-heap.ts';
import { until } from '../support/until.ts';

// ceilingBytes: Infinity where a test is about another reason: the test process's own resident set must not decide

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

/** one GET on a kept-alive agent, body drained */
function getOn(url: string, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => http.get(url.replace('ws:', 'http:'), { agent }, (res) => (res.resume(), res.on('end', resolve))).on('error', reject));
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
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss }, { ceilingBytes: Infinity, afterStartMs: 200, release: (kind) => releases.push(kind) });
  expect(releases).toEqual([]);
  await until('the release after start', () => releases.length === 1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(releases).toEqual(['full']);
});

it('releases once after many connections closed and closing paused, not for a few', async () => {
  const { wss, url } = await wsServer();
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss }, { ceilingBytes: Infinity, closes: 50, quietMs: 300, idleMs: 0, afterStartMs: 0, release: (kind) => releases.push(kind) });
  await connectAndLeave(url, 20);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual([]); // 20 closes are not worth it
  await connectAndLeave(url, 40);
  await until('the release', () => releases.length === 1);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual(['full']); // once for the crowd, then nothing until the next one
});

it('releases once after many megabytes of large bodies, not after a few, nor for many small ones', async () => {
  const { wss, server, url } = await wsServer();
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss, http: server }, { ceilingBytes: Infinity, bytes: 8 * 1024 * 1024, quietMs: 300, idleMs: 0, afterStartMs: 0, release: (kind) => releases.push(kind) });
  await postAndLeave(url, 2);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual([]); // 2 MiB are not worth it
  // 12 MiB in bodies of 32 KiB: under the size that counts (64 KiB), so not a burst of large bodies
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  cleanups.push(async () => agent.destroy());
  const small = Buffer.alloc(32 * 1024, 1);
  const post = () => new Promise<void>((resolve, reject) => {
    const req = http.request(url.replace('ws:', 'http:'), { method: 'POST', agent, headers: { 'content-length': small.length } }, (res) => (res.resume(), res.on('end', resolve)));
    req.on('error', reject);
    req.end(small);
  });
  for (let i = 0; i < 384; i += 4) await Promise.all([post(), post(), post(), post()]);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual([]);
  await Promise.all([postAndLeave(url, 4), postAndLeave(url, 4)]);
  await until('the release', () => releases.length === 1);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual(['full']);
});

it('releases again at rest, at most once an idle period, and not while requests keep coming', async () => {
  const { wss, server, url } = await wsServer();
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss, http: server }, { ceilingBytes: Infinity, requests: 1_000_000, quietMs: 100, restMs: 600, idleMs: 500, afterStartMs: 0, release: (kind) => releases.push(kind) });
  await until('a release at rest', () => releases.length === 1); // a server that has served nothing is at rest
  const first = Date.now();
  await until('the next one', () => releases.length === 2);
  expect(Date.now() - first).toBeGreaterThanOrEqual(400);
  // a request every 30 ms: no look finds the server quiet, nor at rest for a while after
  const agent = new http.Agent({ keepAlive: true });
  cleanups.push(async () => agent.destroy());
  const get = () => getOn(url, agent);
  const before = releases.length;
  let started = Date.now();
  while (Date.now() - started < 1200) {
    await get();
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(releases.length).toBe(before);
  await until('a release once at rest again', () => releases.length === before + 1);
  // a trickle is rest: one request every 250 ms puts at most one in a look of 100 ms, which is not
  // busy (a look counts as busy with more than one a second, and never with fewer than two), so releases go on
  started = Date.now();
  const during = releases.length;
  while (Date.now() - started < 2000) {
    await get();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(releases.length).toBeGreaterThan(during);
  expect(releases.every((kind) => kind === 'full')).toBe(true);
});

it('after many requests on connections kept open: a light release once they paused, the full one once at rest', async () => {
  const { wss, server, url } = await wsServer();
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss, http: server }, { ceilingBytes: Infinity, requests: 200, quietMs: 300, restMs: 1800, idleMs: 0, afterStartMs: 0, release: (kind) => releases.push(kind) });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  cleanups.push(async () => agent.destroy());
  const get = () => getOn(url, agent);
  const burst = async (count: number) => {
    for (let i = 0; i < count; i += 4) await Promise.all([get(), get(), get(), get()]);
  };
  await burst(100);
  await new Promise((resolve) => setTimeout(resolve, 900));
  expect(releases).toEqual([]); // 100 requests are not worth it
  // requests that keep coming hold the release back until they pause
  let started = Date.now();
  while (Date.now() - started < 700) await burst(20);
  expect(releases).toEqual([]);
  await until('the light release', () => releases.length === 1);
  const paused = Date.now();
  expect(releases).toEqual(['light']);
  await until('the full release at rest', () => releases.length === 2);
  expect(Date.now() - paused).toBeGreaterThanOrEqual(1200);
  expect(releases).toEqual(['light', 'full']);
  // a load that comes back before the server is at rest postpones the full release
  started = Date.now();
  while (Date.now() - started < 700) await burst(20);
  await until('the light release', () => releases.length === 3);
  started = Date.now();
  while (Date.now() - started < 900) await burst(20);
  await until('the full release at rest', () => releases.length === 5);
  expect(releases).toEqual(['light', 'full', 'light', 'light', 'full']);
});

it('after a load, releases fully at the first quiet look when the resident set is above the ceiling; not again at rest', async () => {
  const { wss, server, url } = await wsServer();
  const releases: ReleaseKind[] = [];
  releaseMemoryAfterLoad({ ws: wss, http: server }, { requests: 200, quietMs: 200, idleMs: 0, afterStartMs: 0, ceilingBytes: 1, release: (kind) => releases.push(kind) });
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(releases).toEqual([]); // above the ceiling, but no load yet
  const agent = new http.Agent({ keepAlive: true });
  cleanups.push(async () => agent.destroy());
  const started = Date.now();
  while (Date.now() - started < 600) {
    await getOn(url, agent);
  }
  expect(releases).toEqual([]); // not while requests come
  await until('the release over the ceiling', () => releases.length === 1);
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(releases).toEqual(['full']); // still above the ceiling, but once a load
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
