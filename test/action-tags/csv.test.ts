// CSV export and import of action tags (/v1/action-tags/exports/csv, /v1/action-tags/imports/csv):
// the raw text/csv body, the dry run reporting every row's problems through the same checks as the
// API, the atomic apply with its Idempotency-Key (replay, and 409 for another body), the formula-safe
// export that imports back unchanged, the 5 MB and 5,000-row limits, the band gate and GraphQL.
import { parse } from 'csv-parse/sync';
import { describe, expect, it, beforeAll } from 'vitest';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { useServer } from '../support/use-server.ts';

const IMPORT = '/v1/action-tags/imports/csv';
const EXPORT = '/v1/action-tags/exports/csv';
const HEADER = 'simplyActionTagSimplyId,name,notes,status,actionType,actionUrl,linkPageSettings,labelSimplyIds';

let keys = 0;
const newKey = () => `import-${process.pid}-${Date.now()}-${keys++}`;
const csvLine = (cells: string[]) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');

describe('action-tag CSV', () => {
  const { server, teams: [team, other, small] } = useServer({ teams: 3 });
  beforeAll(async () => {
    await setActionTagPlan(server.app.services, small.teamSimplyId, { preset: 'standalone-100' }, null);
  });

  const send = (csv: string, options: { dryRun?: boolean; key?: string; token?: string; type?: string } = {}) =>
    server.request('POST', `${IMPORT}${options.dryRun ? '?dryRun=true' : ''}`, {
      token: options.token ?? team.apiKey,
      rawBody: csv,
      headers: { 'content-type': options.type ?? 'text/csv', ...(options.key ? { 'idempotency-key': options.key } : {}) },
    });
  const exported = async (token = team.apiKey) => {
    const res = await server.request('GET', EXPORT, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    return res.text;
  };
  const tagCount = async (teamId = team.teamId) => server.app.services.prisma.actionTag.count({ where: { teamId } });

  it('dry run: reports every row’s problems as the API would, and writes nothing', async () => {
    const theirs = expectOk(await server.request('POST', '/v1/action-tags', { token: other.apiKey, body: { name: 'Theirs', actionUrl: 'https://example.org/t' } }), 201);
    const sixCtas = JSON.stringify({ title: 'Hi', callsToAction: Array.from({ length: 6 }, (_, i) => ({ label: `L${i}`, url: 'https://example.org' })) });
    const csv = [
      HEADER,
      csvLine(['', 'Good poster', '', 'ACTIVE', 'URL', 'https://example.org/a', '', 'gala;spring']),
      csvLine(['', 'Bad scheme', '', '', 'URL', 'javascript:alert(1)', '', '']),
      csvLine(['', '<b>Bold</b>', '', '', 'URL', 'https://example.org', '', '']),
      csvLine(['', 'Six', '', '', 'LINK_PAGE', '', sixCtas, '']),
      csvLine(['', 'Broken JSON', '', '', 'LINK_PAGE', '', '{nope', '']),
      csvLine([theirs.id, 'Not ours', '', '', '', '', '', '']),
      csvLine(['', 'Too few cells']),
      csvLine(['', 'No URL', '', '', 'URL', '', '', '']),
      csvLine(['', 'Powered', '', '', 'DATA_WIZARD', 'https://example.org', '', '']),
    ].join('\r\n');
    const before = await tagCount();
    const result = expectOk(await send(csv, { dryRun: true }));
    expect(result).toMatchObject({ dryRun: true, applied: false, replayed: false, rowCount: 9, createCount: 1, errorCount: 8, fileErrors: [] });
    const fields = (n: number) => result.rows[n - 1].errors.map((e: { field: string }) => e.field);
    expect(result.rows[0]).toMatchObject({ rowNumber: 1, action: 'CREATE', simplyActionTagSimplyId: null, errors: [] });
    expect(fields(2)).toEqual(['actionUrl']);
    expect(fields(3)).toEqual(['name']);
    expect(fields(4)).toEqual(['linkPageSettings.callsToAction']);
    expect(fields(5)).toEqual(['linkPageSettings']);
    expect(result.rows[5]).toMatchObject({ action: 'ERROR', simplyActionTagSimplyId: theirs.id, errors: [{ field: 'simplyActionTagSimplyId', message: 'is not an action tag of this team' }] });
    expect(fields(7)).toEqual(['row']);
    expect(fields(8)).toEqual(['actionUrl']);
    expect(fields(9)).toEqual(['actionType']);
    expect(await tagCount()).toBe(before);
  });

  it('apply: needs an Idempotency-Key, is all or nothing, and the same key replays the first answer or refuses another body', async () => {
    const good = [HEADER, csvLine(['', 'One', '', 'ACTIVE', 'URL', 'https://example.org/1', '', '']), csvLine(['', 'Two', 'second', '', 'URL', 'https://example.org/2', '', 'x'])].join('\r\n');
    const keyless = expectError(await send(good), 400, 'VALIDATION_ERROR');
    expect(keyless.details?.[0]?.field).toBe('Idempotency-Key');

    const before = await tagCount();
    const mixed = `${good}\r\n${csvLine(['', 'Three', '', '', 'URL', 'ftp://example.org/3', '', ''])}`;
    const refused = expectError(await send(mixed, { key: newKey() }), 400, 'VALIDATION_ERROR');
    expect(refused.details).toEqual([{ field: 'rows[3].actionUrl', message: expect.any(String) }]);
    expect(await tagCount()).toBe(before);

    const key = newKey();
    const applied = expectOk(await send(good, { key }));
    expect(applied).toMatchObject({ dryRun: false, applied: true, replayed: false, rowCount: 2, createCount: 2, errorCount: 0 });
    const ids = applied.rows.map((r: { simplyActionTagSimplyId: string }) => r.simplyActionTagSimplyId);
    expect(ids.every((id: string) => /^atag-/.test(id))).toBe(true);
    expect(expectOk(await server.request('GET', `/v1/action-tags/${ids[1]}`, { token: team.apiKey }))).toMatchObject({ name: 'Two', notes: 'second', status: 'DRAFT', labelSimplyIds: ['x'] });
    expect(await tagCount()).toBe(before + 2);

    const again = expectOk(await send(good, { key }));
    expect(again).toEqual({ ...applied, replayed: true });
    expect(await tagCount()).toBe(before + 2);
    expectError(await send(`${good}\r\n`.replace('One', 'Uno'), { key }), 409, 'IDEMPOTENCY_KEY_REUSED');
    // a key is the team's own: another team may use the same one
    expect(expectOk(await send(good, { key, token: other.apiKey })).replayed).toBe(false);
  });

  it('exports formula-safe, import-compatible CSV: the export imports back unchanged, and an edited export updates', async () => {
    const tricky = expectOk(
      await server.request('POST', '/v1/action-tags', { token: team.apiKey, body: { name: '=HYPERLINK("https://evil.example")', notes: "'=already quoted", actionUrl: 'https://example.org/x' } }),
      201,
    );
    await server.request('POST', '/v1/action-tags', { token: team.apiKey, body: { name: '@home, "quoted"', notes: '-5 off\nsecond line', ...{ linkPageSettings: { title: 'Page', callsToAction: [{ label: 'Go', url: 'https://example.org/go' }] } } } });
    const csv = await exported();
    const [header, ...rows] = parse(csv, { bom: true }) as string[][];
    expect(header).toEqual(expect.arrayContaining(['simplyActionTagSimplyId', 'name', 'publicUrl', 'lifetimeScans']));
    const row = rows.find((r) => r[0] === tricky.id)!;
    expect(row[header!.indexOf('name')]).toBe('\'=HYPERLINK("https://evil.example")');
    expect(row[header!.indexOf('notes')]).toBe("''=already quoted");
    expect(rows.some((r) => r[header!.indexOf('name')] === "'@home, \"quoted\"")).toBe(true);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);

    const roundTrip = expectOk(await send(csv, { key: newKey() }));
    expect(roundTrip).toMatchObject({ applied: true, createCount: 0, updateCount: 0, errorCount: 0, unchangedCount: rows.length });
    expect(expectOk(await server.request('GET', `/v1/action-tags/${tricky.id}`, { token: team.apiKey }))).toMatchObject({ name: '=HYPERLINK("https://evil.example")', notes: "'=already quoted" });

    // an edit: rename and activate one tag, an impossible move for another row is that row's error
    const edited = [HEADER.split(',').slice(0, 4).join(','), csvLine([tricky.id, 'Renamed', '', 'ACTIVE'])].join('\r\n');
    const update = expectOk(await send(edited, { key: newKey() }));
    expect(update).toMatchObject({ updateCount: 1, rows: [{ action: 'UPDATE', simplyActionTagSimplyId: tricky.id }] });
    expect(expectOk(await server.request('GET', `/v1/action-tags/${tricky.id}`, { token: team.apiKey }))).toMatchObject({ name: 'Renamed', notes: null, status: 'ACTIVE' });
    const bad = expectOk(await send(`simplyActionTagSimplyId,status\r\n${tricky.id},ARCHIVED_BY_DOWNGRADE\r\n${tricky.id},INACTIVE`, { dryRun: true }));
    expect(bad.rows.map((r: { errors: { field: string }[] }) => r.errors.map((e) => e.field))).toEqual([['status'], ['simplyActionTagSimplyId']]);
  });

  it('refuses a file it cannot take with 400 naming what is wrong', async () => {
    const header = (res: Awaited<ReturnType<typeof send>>) => expectError(res, 400, 'VALIDATION_ERROR').details?.map((d) => d.field);
    expect(header(await send('name,colour\r\nA,red', { dryRun: true }))).toEqual(['header.colour']);
    expect(header(await send('notes\r\nx', { dryRun: true }))).toEqual(['header']);
    expect(header(await send('', { dryRun: true }))).toEqual(['body']);
    expect(header(await send('name,actionUrl\r\n"unclosed,https://example.org', { dryRun: true }))).toEqual(['body']);
    const tooMany = ['name,actionUrl', ...Array.from({ length: 5001 }, (_, i) => `T${i},https://example.org/${i}`)].join('\n');
    expect(header(await send(tooMany, { dryRun: true }))).toEqual(['body']);
    const tooBig = `name,notes\n${'a,'.padEnd(5 * 1024 * 1024 + 10, 'x')}`;
    expect(header(await send(tooBig, { dryRun: true }))).toEqual(['body']);
    expect(header(await send('name\r\nA', { dryRun: true, type: 'application/json' }))).toEqual(['Content-Type']);
    expect(header(await send('name\r\nA', { key: 'has space' }))).toEqual(['Idempotency-Key']);
  });

  it('needs the 500 band for both directions', async () => {
    expectError(await server.request('GET', EXPORT, { token: small.apiKey }), 403, 'ACTION_TAG_BAND_REQUIRED');
    expectError(await send('name\r\nA', { dryRun: true, token: small.apiKey }), 403, 'ACTION_TAG_BAND_REQUIRED');
  });

  it('has the same operations in GraphQL', async () => {
    const gql = (query: string, variables: Record<string, unknown> = {}) => server.graphql(query, variables, { token: other.apiKey });
    const dry = gqlData(await gql('mutation($csv: String!) { importActionTagsCsv(csv: $csv, dryRun: true) { dryRun rowCount createCount rows { action } } }', { csv: 'name,actionUrl\nG,https://example.org/g' }));
    expect(dry.importActionTagsCsv).toEqual({ dryRun: true, rowCount: 1, createCount: 1, rows: [{ action: 'CREATE' }] });
    const csv = gqlData(await gql('{ actionTagsCsvExport }')).actionTagsCsvExport as string;
    expect(csv.split('\r\n')[0]).toMatch(/^simplyActionTagSimplyId,name,/);
  });
});
