// The constituent-auth section of `npm run bench`, on a platform server of its own (`svc start`,
// behind TRUST_PROXY so each simulated constituent has an address of its own) over a fresh database:
//   constituent-auth-verify  POST /v1/constituent-auth/verify with the right code of a fresh
//                            verification (the code read from the stored mail), 4 connections
//                            (p95 < 50 ms): the row lock, the keyed code hash (HMAC-SHA256), the
//                            session and refresh-token inserts and the shared rate-limit counter;
//                            informational: a wrong code (the failed-attempt update), and the
//                            refresh that rotates the pair
import pg from 'pg';
import { svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { ProxiedClient, startProxiedPlatform } from './proxied-platform.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type SectionRun } from '../section-bed.ts';

export const CONSTITUENT_AUTH_SCENARIOS = ['constituent-auth-verify'] as const;
export type ConstituentAuthScenario = (typeof CONSTITUENT_AUTH_SCENARIOS)[number];

const PEOPLE = 50;
const CONNECTIONS = 4;
const MEASURED = 400;
const WARMUP = 40;
const INITIATE_LANES = 16;
const TARGET_P95_MS = 50;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

/** `count` verifications with their codes, initiated from many addresses at once (each answer takes at least 200 ms). */
async function verifications(api: ProxiedClient, db: pg.Pool, team: string, emails: string[], count: number): Promise<{ id: string; code: string }[]> {
  const ids: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const v = await api.ok('POST', '/v1/constituent-auth/initiate', { teamSimplyId: team, contactValue: emails[i % emails.length], method: 'CODE' }, '');
      ids.push(v.verificationSimplyId);
    }
  };
  await Promise.all(Array.from({ length: INITIATE_LANES }, lane));
  const { rows } = await db.query<{ sourceId: string; textBody: string }>(`SELECT "sourceId", "textBody" FROM "MailMessage" WHERE source = 'CONSTITUENT_AUTHENTICATION' AND "sourceId" = ANY($1)`, [ids]);
  return rows.map((r) => ({ id: r.sourceId, code: /\b(\d{6})\b/.exec(r.textBody)![1]! }));
}

async function verifyScenario(api: ProxiedClient, db: pg.Pool, { lines, targets, summary, progress }: SectionRun): Promise<void> {
  progress('constituent-auth: verify of fresh codes');
  const collection = await api.ok('POST', '/v1/data-collections', {
    name: 'Members',
    archetype: 'PERSON',
    fields: [
      { title: 'Name', columnName: 'name', dataType: 'PLAIN_TEXT' },
      { title: 'Email', columnName: 'email', dataType: 'EMAIL_ADDRESS' },
    ],
  });
  const fieldIds: Record<string, string> = Object.fromEntries((collection.fields as { id: string; columnName: string }[]).map((f) => [f.columnName, f.id]));
  const emails = Array.from({ length: PEOPLE }, (_, i) => `member-${i}@bench.example.org`);
  for (const [i, email] of emails.entries()) {
    await api.ok('POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [fieldIds.name!]: `Member ${i}`, [fieldIds.email!]: email } });
  }
  const teamSimplyId = (await db.query<{ simplyId: string }>(`SELECT "simplyId" FROM "Team" ORDER BY id LIMIT 1`)).rows[0]!.simplyId;

  const pending = await verifications(api, db, teamSimplyId, emails, WARMUP + MEASURED + 100);
  const warm = pending.splice(0, WARMUP);
  for (const v of warm) await api.ok('POST', '/v1/constituent-auth/verify', { verificationSimplyId: v.id, code: v.code }, '');

  const measured: number[] = [];
  const refreshTokens: string[] = [];
  const queue = pending.splice(0, MEASURED);
  const lane = async () => {
    for (let v = queue.shift(); v; v = queue.shift()) {
      const response = await api.request('POST', '/v1/constituent-auth/verify', { verificationSimplyId: v.id, code: v.code }, undefined, '');
      if (response.status !== 200) throw new Error(`verify answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
      measured.push(response.ms);
      refreshTokens.push(response.body.data.refreshToken);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));

  // informational: a wrong code, and a refresh, one at a time
  const wrong: number[] = [];
  for (const v of pending.splice(0, 100)) {
    const response = await api.request('POST', '/v1/constituent-auth/verify', { verificationSimplyId: v.id, code: v.code === '000000' ? '111111' : '000000' }, undefined, '');
    if (response.status !== 400) throw new Error(`a wrong code answered ${response.status}`);
    wrong.push(response.ms);
  }
  const refreshes: number[] = [];
  for (const refreshToken of refreshTokens.slice(0, 100)) {
    const response = await api.request('POST', '/v1/constituent-auth/refresh', { refreshToken }, undefined, '');
    if (response.status !== 200) throw new Error(`refresh answered ${response.status}`);
    refreshes.push(response.ms);
  }

  const s = summarizeLatencies(measured);
  const value = p95(measured);
  summary.verify = { hashing: 'HMAC-SHA256 (key derived from the secrets key)', connections: CONNECTIONS, requests: measured.length, ...s, p95: value, wrongCodeP50: summarizeLatencies(wrong).p50, wrongCodeP95: p95(wrong), refreshP50: summarizeLatencies(refreshes).p50, refreshP95: p95(refreshes) };
  lines.push(
    '',
    `constituent-auth-verify: ${measured.length} right codes of fresh verifications, ${CONNECTIONS} connections, each from its own client address (codes hashed with HMAC-SHA256)`,
    `  verify: p50 ${s.p50.toFixed(1)} ms, p95 ${value.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
    `  a wrong code, one at a time (informational): p50 ${summarizeLatencies(wrong).p50.toFixed(1)} ms, p95 ${p95(wrong).toFixed(1)} ms`,
    `  refresh, one at a time (informational): p50 ${summarizeLatencies(refreshes).p50.toFixed(1)} ms, p95 ${p95(refreshes).toFixed(1)} ms`,
  );
  targets.push(judged(`constituent verify (right code), ${CONNECTIONS} connections, p95 < ${TARGET_P95_MS} ms`, `${value.toFixed(1)} ms`, value < TARGET_P95_MS));
}

export const runConstituentAuthSection = (scenarios: readonly ConstituentAuthScenario[], progress: (line: string) => void) =>
  runSection('constituent-auth', scenarios, progress, async (bed) => {
    const db = new pg.Pool({ connectionString: bed.database.url, max: 2 });
    bed.onCleanup(() => db.end());
    const boot = await bed.bootstrap('Bench constituents');
    const platform = await startProxiedPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
    bed.onCleanup(() => platform.stop());
    const api = new ProxiedClient(platform.port, boot.apiKey, INITIATE_LANES);
    bed.onCleanup(() => api.close());
    await bed.scenario('constituent-auth-verify', () => verifyScenario(api, db, bed));
  });

export const benchSection = defineBenchSection('constituent-auth', CONSTITUENT_AUTH_SCENARIOS, runConstituentAuthSection);
