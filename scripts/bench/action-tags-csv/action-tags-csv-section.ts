// The action-tag CSV section of `npm run bench` (docs/benchmark.md "Action-tag CSV"), on a platform
// server of its own (`svc start`) over a fresh database, the team on the 5000 band
// (ACTION_TAGS_DEFAULT_PLAN=standalone-5000) so 5,000 tags fit its capacity:
//   action-tags-csv-import  a 5,000-row CSV (the documented maximum; URL and LINK_PAGE tags with
//                           notes and labels) POSTed as text/csv: the dry run, then the apply with an
//                           Idempotency-Key (target < 5 s), its replay, the export of the 5,000 tags,
//                           and that export imported back (5,000 rows checked, nothing changed).
// Every row goes through the same checks as POST /v1/action-tags, and the apply writes the tags and
// their lifecycle events in one transaction.
import https from 'node:https';
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection } from '../section-bed.ts';

export const CSV_SCENARIOS = ['action-tags-csv-import'] as const;
export type CsvScenario = (typeof CSV_SCENARIOS)[number];

const ROWS = 5000;
const TARGET_MS = 5000;
const MIB = 1024 * 1024;

function csvFile(): string {
  const lines = ['name,notes,status,actionType,actionUrl,linkPageSettings,labelSimplyIds'];
  const page = JSON.stringify({ title: 'Welcome', theme: 'SYSTEM', callsToAction: [{ label: 'Donate', url: 'https://example.org/donate' }, { label: 'Volunteer', url: 'https://example.org/volunteer' }] });
  for (let i = 0; i < ROWS; i++) {
    const linkPage = i % 5 === 0;
    const cells = [`Poster ${i}`, `"Printed run ${i % 40}, lobby ${i % 7}"`, i % 2 ? 'ACTIVE' : 'DRAFT', linkPage ? 'LINK_PAGE' : 'URL', linkPage ? '' : `https://example.org/campaign/${i}?ref=qr`, linkPage ? `"${page.replace(/"/g, '""')}"` : '', `spring-${i % 10};print`];
    lines.push(cells.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A raw text/csv POST (the route's body is the file, not JSON) or a GET of the export. */
function raw(baseUrl: string, ca: string, apiKey: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = https.request(`${baseUrl}${path}`, { method, ca, headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'text/csv' }), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectStatus(step: string, response: { status: number; text: string }, status: number): any {
  if (response.status !== status) throw new Error(`${step}: expected ${status}, got ${response.status} ${response.text.slice(0, 600)}`);
  return response.text.startsWith('{') ? JSON.parse(response.text).data : response.text;
}

export const runCsvSection = (scenarios: readonly CsvScenario[], progress: (line: string) => void) =>
  runSection('action-tags-csv', scenarios, progress, async (bed) => {
    const { lines, targets, summary } = bed;
    let platform: PlatformProcess | null = null;
    bed.onCleanup(() => platform?.stop());
    await bed.guard('action-tags-csv section', async () => {
      const team = await bed.bootstrap('Bench action-tag CSV');
      platform = await startPlatform(svcEnvironment({ ...bed.env, ACTION_TAGS_DEFAULT_PLAN: 'standalone-5000' }));
      progress(`action-tags-csv: server ${platform.baseUrl} (pid ${platform.pid})`);
      const call = (method: string, path: string, body?: string, headers?: Record<string, string>) => raw(platform!.baseUrl, platform!.ca, team.apiKey, method, path, body, headers);
      // one request first, so the measured ones do not pay for the server's warm-up
      const warm = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.apiKey, sockets: 1 });
      await warm.expect(200, 'GET', '/v1/action-tags?limit=1');
      warm.close();

      const csv = csvFile();
      const bytes = Buffer.byteLength(csv);
      progress(`action-tags-csv: ${ROWS.toLocaleString('en')} rows (${(bytes / MIB).toFixed(2)} MiB)`);
      const dry = await call('POST', '/v1/action-tags/imports/csv?dryRun=true', csv);
      const dryResult = expectStatus('dry run', dry, 200);
      if (dryResult.errorCount !== 0 || dryResult.createCount !== ROWS) throw new Error(`dry run: ${JSON.stringify({ ...dryResult, rows: dryResult.rows.slice(0, 3) })}`);
      const apply = await call('POST', '/v1/action-tags/imports/csv', csv, { 'idempotency-key': 'bench-apply-1' });
      const applied = expectStatus('apply', apply, 200);
      if (!applied.applied || applied.createCount !== ROWS) throw new Error(`apply: ${JSON.stringify({ ...applied, rows: applied.rows.slice(0, 3) })}`);
      const replay = await call('POST', '/v1/action-tags/imports/csv', csv, { 'idempotency-key': 'bench-apply-1' });
      if (!expectStatus('replay', replay, 200).replayed) throw new Error('the replay was not answered from the first apply');
      const exported = await call('GET', '/v1/action-tags/exports/csv');
      const file = expectStatus('export', exported, 200) as string;
      const back = await call('POST', '/v1/action-tags/imports/csv', file, { 'idempotency-key': 'bench-round-trip' });
      const roundTrip = expectStatus('round trip', back, 200);
      if (roundTrip.unchangedCount !== ROWS) throw new Error(`round trip: ${JSON.stringify({ ...roundTrip, rows: roundTrip.rows.filter((r: { action: string }) => r.action !== 'UNCHANGED').slice(0, 3) })}`);

      summary.csv = { rows: ROWS, bytes, dryRunMs: dry.ms, applyMs: apply.ms, replayMs: replay.ms, exportMs: exported.ms, exportBytes: Buffer.byteLength(file), roundTripMs: back.ms };
      lines.push(
        '',
        `action-tags-csv-import: a ${ROWS.toLocaleString('en')}-row CSV (${(bytes / MIB).toFixed(2)} MiB, URL and LINK_PAGE tags) through POST /v1/action-tags/imports/csv`,
        `  dry run ${dry.ms.toFixed(0)} ms; apply (all rows, one transaction, with lifecycle events) ${apply.ms.toFixed(0)} ms; replay of the same key ${replay.ms.toFixed(0)} ms`,
        `  export of ${ROWS.toLocaleString('en')} tags ${exported.ms.toFixed(0)} ms (${(Buffer.byteLength(file) / MIB).toFixed(2)} MiB); that export imported back (every row checked, none changed) ${back.ms.toFixed(0)} ms`,
      );
      targets.push(judged(`CSV import of ${ROWS.toLocaleString('en')} rows < ${TARGET_MS / 1000} s`, `${(apply.ms / 1000).toFixed(2)} s`, apply.ms < TARGET_MS));
    }, () => platform?.outputTail());
  });

export const benchSection = defineBenchSection('action-tags-csv', CSV_SCENARIOS, runCsvSection);
