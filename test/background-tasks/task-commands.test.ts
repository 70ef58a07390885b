// `svc export` and `svc import` as an operator runs them: the real command in a child process
// (test/support/svc-cli.ts) against a running test server over HTTPS, trusting its self-signed
// certificate through --ca-cert, signed in as a user. stderr is a pipe here, so progress comes as
// plain lines.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportQueueData, importQueueData, parseMapping } from '../../src/modules/background-tasks/cli/task-commands.ts';
import { progressLine } from '../../src/modules/background-tasks/cli/task-follow.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { createPeople, createRecord } from '../support/record-fixtures.ts';
import { runSvc, type SvcRun } from '../support/svc-cli.ts';
import { useServer } from '../support/use-server.ts';

// each test starts node processes that load the whole app: slow on a busy machine
vi.setConfig({ testTimeout: 120_000 });

const { server, teams } = useServer({ teams: 1, runJobs: true, ownDatabase: 'cli_task_commands' });
let dir: string;
let caFile: string;
let people: CollectionFixture;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tasks-'));
  caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, server.ca);
  people = await createPeople(server, teams[0]);
  for (const [first, last, age] of [
    ['Grace', 'Hopper', 85],
    ['Edsger', 'Dijkstra', 72],
    ['Barbara', 'Liskov', 86],
  ] as const) {
    await createRecord(server, teams[0].apiKey, people.id, { [people.fields.first_name!]: first, [people.fields.last_name!]: last, [people.fields.age!]: age });
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The connection flags of the fixture team's admin, signed in with their user token. */
const asAdmin = () => ['--base-url', server.baseUrl, '--team', teams[0].teamSimplyId, '--ca-cert', caFile, '--token', teams[0].userToken];
const svc = (args: string[], env: Record<string, string> = {}) => runSvc(args, env, 90_000);

function summaryOf(run: SvcRun): any {
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
}

async function peopleNamed(first: string): Promise<any[]> {
  // People are named "{first_name} {last_name}"
  const rows = await server.app.services.pool.query(`SELECT "simplyId" FROM "DataRecord" WHERE "teamId" = $1 AND "collectionId" = $2 AND "nameKey" LIKE $3`, [
    teams[0].teamId,
    people.internalId,
    `${first.toLowerCase()}%`,
  ]);
  return rows.rows;
}

describe('svc export', () => {
  it('exports the chosen fields to --out, with plain progress lines on a pipe, exit 0', async () => {
    const out = path.join(dir, 'people.csv');
    const run = await svc(['export', ...asAdmin(), '--collection', people.id, '--fields', [people.fields.first_name, people.fields.last_name, people.fields.age].join(','), '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const csv = fs.readFileSync(out, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/first_name.*last_name.*age/);
    for (const [first, last, age] of [
      ['Grace', 'Hopper', '85'],
      ['Edsger', 'Dijkstra', '72'],
      ['Barbara', 'Liskov', '86'],
    ]) {
      expect(lines.some((l) => l.includes(first!) && l.includes(last!) && l.includes(age!))).toBe(true);
    }
    // not a terminal: no bar drawing, but progress lines
    expect(run.stderr).not.toMatch(/\u001b\[/);
    expect(run.stderr).toMatch(/^DATA_EXPORT task btk-\S+ queued$/m);
    expect(run.stderr).toMatch(/^100% 3\/3$/m);
    expect(summaryOf(run)).toMatchObject({ status: 'COMPLETED', out, bytes: Buffer.byteLength(fs.readFileSync(out)) });
  });

  it('--out - writes the CSV to stdout (the summary then goes to stderr)', async () => {
    const run = await svc(['export', ...asAdmin(), '--collection', people.id, '--fields', people.fields.last_name!, '--out', '-']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).sort()).toEqual(['Dijkstra', 'Hopper', 'Liskov']);
    expect(run.stderr).toMatch(/"status":"COMPLETED"/);
  });

  it("a refused export (another team's collection id) exits 1 with the platform's code and details", async () => {
    const run = await svc(['export', ...asAdmin(), '--collection', 'col-NOPE-NOPE-NOPE', '--fields', people.fields.first_name!, '--out', path.join(dir, 'never.csv')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/svc export: (NOT_FOUND|VALIDATION_ERROR): /);
    expect(fs.existsSync(path.join(dir, 'never.csv'))).toBe(false);
  });
});

describe('svc import', () => {
  it('signs in with email and password, uploads the CSV, creates the records, exit 0', async () => {
    const file = path.join(dir, 'new-people.csv');
    fs.writeFileSync(file, 'First,Last,Age\nAda,Lovelace,36\nAlan,Turing,41\n');
    const mapping = `First=${people.fields.first_name},Last=${people.fields.last_name},Age=${people.fields.age}`;
    const run = await svc(['import', '--base-url', server.baseUrl, '--team', teams[0].teamSimplyId, '--ca-cert', caFile, '--email', teams[0].email, '--collection', people.id, '--file', file, '--mapping', mapping], {
      SVC_PASSWORD: 'correct horse battery staple',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^uploaded new-people\.csv as file-\S+$/m);
    expect(run.stderr).toMatch(/^BULK_DATA_IMPORT task btk-\S+ queued$/m);
    expect(run.stderr).toMatch(/^100% 2\/2$/m);
    expect(summaryOf(run)).toMatchObject({ status: 'COMPLETED', fileSimplyId: expect.stringMatching(/^file-/) });
    expect(await peopleNamed('Ada')).toHaveLength(1);
    expect(await peopleNamed('Alan')).toHaveLength(1);
    // the command closed the sign-in session it opened
    const sessions = await server.app.services.prisma.userSession.findMany({ where: { user: { simplyId: teams[0].userSimplyId }, deviceName: 'svc command line' } });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s: any) => s.revokedAt !== null)).toBe(true);
  });

  it('--dry-run validates and writes nothing; a bad row gives PARTIAL_SUCCESS, exit 3, the error printed with its row', async () => {
    const file = path.join(dir, 'mixed.csv');
    fs.writeFileSync(file, 'First,Age\nKatherine,101\nNobody,not a number\n');
    const mapping = `First=${people.fields.first_name},Age=${people.fields.age}`;
    const dry = await svc(['import', ...asAdmin(), '--collection', people.id, '--file', file, '--mapping', mapping, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(3);
    expect(await peopleNamed('Katherine')).toHaveLength(0);
    const run = await svc(['import', ...asAdmin(), '--collection', people.id, '--file', file, '--mapping', mapping]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/^PARTIAL_SUCCESS with 1 error$/m);
    // the second data row (the importer counts data rows from 1)
    expect(run.stderr).toMatch(new RegExp(`^  INVALID_VALUE \\(rowNumber=2 column=Age dataFieldSimplyId=${people.fields.age}\\): Row 2: column "Age" `, 'm'));
    expect(summaryOf(run).status).toBe('PARTIAL_SUCCESS');
    expect(await peopleNamed('Katherine')).toHaveLength(1);
    expect(await peopleNamed('Nobody')).toHaveLength(0);
  });
});

describe('signing in', () => {
  it('an API key is refused with IDP_REQUIRED and a hint, exit 1', async () => {
    const run = await svc(['export', '--base-url', server.baseUrl, '--team', teams[0].teamSimplyId, '--ca-cert', caFile, '--token', teams[0].apiKey, '--collection', people.id, '--fields', people.fields.first_name!]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^svc export: IDP_REQUIRED: /m);
    expect(run.stderr).toMatch(/sign in with --email, or pass a user access token with --token/);
  });

  it('a wrong password exits 1 with the sign-in refusal; nothing is uploaded', async () => {
    const file = path.join(dir, 'never.csv');
    fs.writeFileSync(file, 'First\nNever\n');
    const before = await server.app.services.prisma.fileUpload.count({ where: { teamId: teams[0].teamId } });
    const run = await svc(['import', '--base-url', server.baseUrl, '--team', teams[0].teamSimplyId, '--ca-cert', caFile, '--email', teams[0].email, '--collection', people.id, '--file', file, '--mapping', `First=${people.fields.first_name}`], {
      SVC_PASSWORD: 'not the password',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^svc import: [A-Z_]+: /m);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(await server.app.services.prisma.fileUpload.count({ where: { teamId: teams[0].teamId } })).toBe(before);
  });

  it('without --ca-cert a self-signed server is refused with a hint to pass it', async () => {
    const run = await svc(['export', '--base-url', server.baseUrl, '--team', teams[0].teamSimplyId, '--token', teams[0].userToken, '--collection', people.id, '--fields', people.fields.first_name!]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/CONNECTION_FAILED: cannot reach https:\/\/127\.0\.0\.1:\d+: .*--ca-cert/);
  });
});

describe('the command line itself', () => {
  it('usage mistakes exit 2 before anything is sent', async () => {
    const runs = await Promise.all([
      svc(['export', '--collection', 'a', '--view', 'b', '--fields', 'x']),
      svc(['export', '--collection', 'a']),
      svc(['export', '--collection', 'a', '--fields', 'x', '--filter', '{not json']),
      svc(['import', '--collection', 'a', '--file', '/nonexistent.csv', '--mapping', 'A=b']),
      svc(['import', '--collection', 'a', '--file', caFile, '--mapping', 'A=b', '--mode', 'update']),
      svc(['export', '--collection', 'a', '--fields', 'x']),
      svc(['export', '--bogus']),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(2);
    expect(runs[0]!.stderr).toMatch(/exactly one of --collection and --view/);
    expect(runs[1]!.stderr).toMatch(/--fields is required/);
    expect(runs[2]!.stderr).toMatch(/--filter is not JSON/);
    expect(runs[3]!.stderr).toMatch(/no such file/);
    expect(runs[4]!.stderr).toMatch(/needs --match/);
    expect(runs[5]!.stderr).toMatch(/--base-url \(or SVC_BASE_URL\) is required/);
    expect(runs[6]!.stderr).toMatch(/usage:/);
  });

  it('queueData and progress lines as the commands build them', () => {
    expect(exportQueueData({ view: 'dvw-1', fields: 'a, b', 'system-columns': 'record_simply_id', filter: '[{"field":"a","operator":"eq","value":1}]', records: 'r1,r2' })).toEqual({
      dataViewSimplyId: 'dvw-1',
      dataFieldSimplyIds: ['a', 'b'],
      systemColumns: ['RECORD_SIMPLY_ID'],
      requestFilter: [{ field: 'a', operator: 'eq', value: 1 }],
      dataRecordSimplyIds: ['r1', 'r2'],
    });
    expect(parseMapping(['Full name=fld-1,a=b=fld-2', 'Age=fld-3'])).toEqual([
      { column: 'Full name', dataFieldSimplyId: 'fld-1' },
      { column: 'a=b', dataFieldSimplyId: 'fld-2' },
      { column: 'Age', dataFieldSimplyId: 'fld-3' },
    ]);
    expect(importQueueData({ collection: 'col-1', mapping: ['K=fld-1'], mode: 'Upsert', match: 'fld-1', 'dry-run': true }, 'file-1')).toEqual({
      fileSimplyId: 'file-1',
      dataCollectionSimplyId: 'col-1',
      mapping: [{ column: 'K', dataFieldSimplyId: 'fld-1' }],
      mode: 'UPSERT',
      matchFieldSimplyId: 'fld-1',
      dryRun: true,
    });
    expect(progressLine(4200, 10_000)).toBe('42% 4200/10000');
    expect(progressLine(12, null)).toBe('12 processed');
  });
});
