// Keep-alive connections for webhook attempts, without giving up the address pinning of
// target-guard.ts. One undici Agent per (target origin, exact set of addresses that passed the
// public-address check, extra CA): its `lookup` answers only with that set, so every socket it
// opens, and so every kept-alive socket it reuses, goes to an address the check let through. An
// attempt whose check found another set (DNS changed) gets another agent; it never borrows a
// connection made for a different set. Agents idle for a minute are closed, and the cache is
// bounded (the least recently used agent is closed first).
import { createHash } from 'node:crypto';
import tls from 'node:tls';
import type { Agent } from 'undici';
import { undici } from '../../app/on-first-use.ts';
import { pinnedLookup, type ResolvedAddress } from './target-guard.ts';

const IDLE_MS = 60_000;
const SWEEP_MS = 15_000;
const MAX_AGENTS = 256;
/** the longest timeoutSeconds (webhooks.input.ts): the attempt's own deadline ends it sooner */
const CONNECT_TIMEOUT_MS = 60_000;

interface Entry {
  agent: Agent;
  lastUsed: number;
  inFlight: number;
}

/** insertion order is recency order: a use moves the entry to the end */
const agents = new Map<string, Entry>();
let sweeper: NodeJS.Timeout | null = null;

function keyOf(origin: string, addresses: readonly ResolvedAddress[], extraCa: string | undefined): string {
  const set = [...new Set(addresses.map((a) => `${a.family}/${a.address}`))].sort().join(',');
  const ca = extraCa ? createHash('sha256').update(extraCa).digest('base64url') : '';
  return `${origin} ${set} ${ca}`;
}

function sweep(): void {
  const now = Date.now();
  for (const [key, entry] of agents) {
    if (entry.inFlight === 0 && now - entry.lastUsed > IDLE_MS) {
      agents.delete(key);
      void entry.agent.close().catch(() => {});
    }
  }
  if (agents.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

function create(addresses: readonly ResolvedAddress[], extraCa: string | undefined): Agent {
  return new (undici().Agent)({
    allowH2: false,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    connect: {
      lookup: pinnedLookup(addresses.map((a) => ({ ...a }))) as never,
      ca: extraCa ? [...tls.rootCertificates, extraCa] : undefined,
      timeout: CONNECT_TIMEOUT_MS,
    },
  });
}

/**
 * Runs `use` with the agent for this origin and checked address set (made on first use). The
 * agent must only be given requests to `origin`.
 */
export async function withTargetAgent<T>(origin: string, addresses: readonly ResolvedAddress[], extraCa: string | undefined, use: (agent: Agent) => Promise<T>): Promise<T> {
  const key = keyOf(origin, addresses, extraCa);
  let entry = agents.get(key);
  if (entry) agents.delete(key);
  else {
    entry = { agent: create(addresses, extraCa), lastUsed: 0, inFlight: 0 };
    while (agents.size >= MAX_AGENTS) {
      const [oldestKey, oldest] = agents.entries().next().value!;
      agents.delete(oldestKey);
      // graceful: requests still running on it finish first
      void oldest.agent.close().catch(() => {});
    }
  }
  agents.set(key, entry);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
  entry.inFlight++;
  entry.lastUsed = Date.now();
  try {
    return await use(entry.agent);
  } finally {
    entry.inFlight--;
    entry.lastUsed = Date.now();
  }
}

/** How many agents are cached (tests). */
export function cachedTargetAgents(): number {
  return agents.size;
}

/** Closes every cached agent (tests; a stopping process drops them with its sockets anyway). */
export async function closeTargetAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  if (sweeper) clearInterval(sweeper);
  sweeper = null;
  await Promise.all(all.map((e) => e.agent.destroy().catch(() => {})));
}
