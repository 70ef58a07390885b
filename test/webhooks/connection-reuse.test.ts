// Connection reuse with pinning (target-agents.ts, webhook-sender.ts): attempts to one target whose
// check finds the same addresses share one kept-alive TLS connection; an attempt whose check finds
// another address set gets an agent (and a connection) of its own, and a set with a non-public
// address is still refused before any connection. A real HTTPS receiver counts the connections.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { cachedTargetAgents, closeTargetAgents } from '../../src/modules/webhooks/target-agents.ts';
import type { Lookup, ResolvedAddress } from '../../src/modules/webhooks/target-guard.ts';
import { sendWebhook } from '../../src/modules/webhooks/webhook-sender.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

let receiver: Receiver;
let ca: string;
let port: string;
/** what the fake DNS answers for the receiver's name */
let answer: ResolvedAddress[] = [];
const lookups: string[] = [];
const lookup: Lookup = async (hostname) => {
  lookups.push(hostname);
  return answer;
};

beforeAll(async () => {
  receiver = await startReceiver(path.join(inject('testDataDir'), 'connection-reuse-receiver'));
  ca = fs.readFileSync(receiver.certFile, 'utf8');
  port = new URL(receiver.origin).port;
});
afterAll(async () => {
  await closeTargetAgents();
  await receiver?.close();
});
beforeEach(async () => {
  await closeTargetAgents();
  lookups.length = 0;
});

// `localhost` is on the receiver's certificate; which address it reaches is the fake DNS's answer
const send = (p: string) =>
  sendWebhook({
    targetUrl: `https://localhost:${port}${p}`,
    body: '{}',
    headers: { 'content-type': 'application/json' },
    timeoutMs: 5_000,
    policy: { allowLoopback: true, lookup },
    extraCa: ca,
  });

const IPV4 = [{ address: '127.0.0.1', family: 4 as const }];
// the same receiver through another address (IPv4-mapped IPv6): another checked set
const MAPPED = [{ address: '::ffff:127.0.0.1', family: 6 as const }];

it('attempts to one target with the same checked addresses share one TLS connection', async () => {
  answer = IPV4;
  const before = receiver.connections();
  for (let i = 0; i < 5; i++) expect(await send('/reuse')).toMatchObject({ success: true, responseStatus: 200 });
  expect(receiver.connections()).toBe(before + 1);
  // concurrent attempts may open more connections, and later ones reuse them
  const burst = await Promise.all(Array.from({ length: 4 }, () => send('/reuse')));
  expect(burst.every((o) => o.success)).toBe(true);
  const afterBurst = receiver.connections();
  for (let i = 0; i < 5; i++) expect((await send('/reuse')).success).toBe(true);
  expect(receiver.connections()).toBe(afterBurst);
  expect(afterBurst - before).toBeLessThanOrEqual(4);
  expect(receiver.on('/reuse')).toHaveLength(14);
  // every attempt still resolved and checked the name
  expect(lookups).toHaveLength(14);
  expect(cachedTargetAgents()).toBe(1);
});

it('another checked address set gets its own agent and connection; the old set keeps its own', async () => {
  answer = IPV4;
  expect((await send('/sets')).success).toBe(true);
  const first = receiver.connections();
  answer = MAPPED;
  expect((await send('/sets')).success).toBe(true);
  expect(receiver.connections()).toBe(first + 1);
  expect(cachedTargetAgents()).toBe(2);
  expect((await send('/sets')).success).toBe(true);
  expect(receiver.connections()).toBe(first + 1);
  // back to the first set: its agent and kept-alive connection again
  answer = IPV4;
  expect((await send('/sets')).success).toBe(true);
  expect(receiver.connections()).toBe(first + 1);
  expect(cachedTargetAgents()).toBe(2);
});

it('a non-public address in the answer is refused before any connection, even with an agent for the host cached', async () => {
  answer = IPV4;
  expect((await send('/private')).success).toBe(true);
  const connections = receiver.connections();
  for (const refused of [[{ address: '10.0.0.7', family: 4 as const }], [...IPV4, { address: '192.168.1.20', family: 4 as const }]]) {
    answer = refused;
    const outcome = await send('/private');
    expect(outcome).toMatchObject({ success: false, responseStatus: null });
    expect(outcome.errorMessage).toMatch(/^refused target: host localhost resolves to (10\.0\.0\.7|192\.168\.1\.20), which is not a public address \(private\)$/);
  }
  expect(receiver.connections()).toBe(connections);
  expect(receiver.on('/private')).toHaveLength(1);
  expect(cachedTargetAgents()).toBe(1);
});
