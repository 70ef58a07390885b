// Field values over REST (Document 1 §2.4, docs/api/data-types.md): for every data type, valid
// writes come back in canonical form (in the write response and on a later read), invalid ones are
// 400 VALIDATION_ERROR naming fields.<dataFieldSimplyId>, on create and on update; reference fields
// must point at live records of the team (and of the target collection when configured).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { insertFileRows } from '../support/file-uploads.ts';
import { createRecord, readRecord, startServerWithTwoTeams } from '../support/record-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let values: CollectionFixture;
let targets: CollectionFixture;
let elsewhere: CollectionFixture;
/** records of `targets` */
let t1: string;
let t2: string;
let deletedTarget: string;
/** a record of the team outside `targets` */
let e1: string;
/** a record of another team */
let foreign: string;
/** a record of `values` to PATCH */
let subject: string;

const FILE = 'file-2345-2345-2345';
const FILE2 = 'file-6789-6789-6789';
const F = (column: string) => values.fields[column]!;

async function post(fields: Record<string, unknown>) {
  return server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: values.id, fields } });
}

async function patch(id: string, fields: Record<string, unknown>) {
  return server.request('PATCH', `/v1/data-records/${id}`, { token: team.apiKey, body: { fields } });
}

const read = (id: string) => readRecord(server, team.apiKey, id);

async function createIn(collection: CollectionFixture, label: string): Promise<string> {
  return (await createRecord(server, team.apiKey, collection.id, { [collection.fields.label!]: label })).id;
}

beforeAll(async () => {
  ({ server, team, otherRecordId: foreign } = await startServerWithTwoTeams({ name: 'O1' }));
  await insertFileRows(server, team.teamId, [FILE, FILE2, 'file-ZZZZ-ZZZZ-ZZZZ', 'file-2222-3333-4444'].map((simplyId) => ({ simplyId })));
  targets = await createLabelCollection(server, team, 'Targets');
  elsewhere = await createLabelCollection(server, team, 'Elsewhere');
  values = await createCollection(server, team, {
    name: 'Values',
    formula: '{plain} {money} {date} {address}',
    fields: {
      plain: 'PLAIN_TEXT',
      short: { dataType: 'PLAIN_TEXT', config: { maxLength: 5 } },
      html: 'FORMATTED_TEXT',
      number: 'NUMBER',
      ranged: { dataType: 'NUMBER', config: { min: 0, max: 10 } },
      decimal: 'DECIMAL',
      decimal2: { dataType: 'DECIMAL', config: { scale: 2 } },
      money: { dataType: 'MONEY', config: { currency: 'EUR' } },
      yen: { dataType: 'MONEY', config: { currency: 'JPY' } },
      date: 'DATE',
      datetime: 'DATE_TIME',
      email: 'EMAIL_ADDRESS',
      phone: 'PHONE_NUMBER',
      phoneUS: { dataType: 'PHONE_NUMBER', config: { defaultCountry: 'US' } },
      bool: 'BOOLEAN',
      url: 'URL',
      address: 'PHYSICAL_ADDRESS',
      addressUS: { dataType: 'PHYSICAL_ADDRESS', config: { defaultCountryCode: 'US' } },
      ref: { dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: targets.id } },
      anyRef: 'SINGLE_DATA_RECORD',
      refs: { dataType: 'MULTI_DATA_RECORD', config: { targetDataCollectionSimplyId: targets.id, maxItems: 3 } },
      file: 'SINGLE_FILE',
      files: 'MULTI_FILE',
      image: 'SINGLE_IMAGE',
      images: 'MULTI_IMAGE',
    },
  });
  t1 = await createIn(targets, 'T1');
  t2 = await createIn(targets, 'T2');
  deletedTarget = await createIn(targets, 'gone');
  expectOk(await server.request('DELETE', `/v1/data-records/${deletedTarget}`, { token: team.apiKey }));
  e1 = await createIn(elsewhere, 'E1');
  subject = expectOk(await post({ [F('plain')]: 'subject', [F('number')]: 1 }), 201).id;
});
afterAll(() => server?.close());

/** [column, input, canonical output] */
const VALID: () => [string, unknown, unknown][] = () => [
  ['plain', '  Caf\u0065\u0301\r\nline 2 ', '  Café\nline 2 '],
  ['short', 'héllo', 'héllo'],
  [
    'html',
    '<p onclick="x()" class="c">Hi <a href="https://example.com" target="_blank">link</a><script>alert(1)</script><img src="x.png">!</p>',
    '<p>Hi <a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">link</a>!</p>',
  ],
  ['number', '007', 7],
  ['ranged', 10, 10],
  ['decimal', '12.30', '12.3'],
  ['decimal2', 19.9, '19.90'],
  ['money', '1.500', '1.50'],
  ['yen', 1500, '1500'],
  ['date', '2024-02-29', '2024-02-29'],
  ['datetime', '2024-01-15 10:00:00.123456+01:00', '2024-01-15T09:00:00.123Z'],
  ['email', '  Alice.Smith@Bücher.DE ', 'Alice.Smith@bücher.de'],
  ['phone', '+44 20 7183 8750', '+442071838750'],
  ['phoneUS', '(415) 555-2671', '+14155552671'],
  ['bool', false, false],
  ['url', 'HTTPS://Example.COM:443/a/../b', 'https://example.com/b'],
  [
    'address',
    { line1: ' 742  Evergreen Terrace ', line2: '', city: 'Springfield', region: 'IL', postalCode: '62701 ab', countryCode: 'us' },
    { line1: '742 Evergreen Terrace', line2: null, city: 'Springfield', region: 'IL', postalCode: '62701 AB', countryCode: 'US' },
  ],
  ['addressUS', { line1: '1 Main St', city: 'Boston' }, { line1: '1 Main St', line2: null, city: 'Boston', region: null, postalCode: null, countryCode: 'US' }],
  ['ref', t1, t1],
  ['anyRef', e1, e1],
  ['refs', [t2, t1], [t2, t1]],
  ['file', FILE, FILE],
  ['files', [FILE2, FILE], [FILE2, FILE]],
  ['image', FILE, FILE],
  ['images', [FILE], [FILE]],
];

/** [column, input, what the message mentions] — each one a 400 naming fields.<id> */
const INVALID: () => [string, unknown, RegExp][] = () => [
  ['plain', 42, /string/],
  // refused at the edge, before field validation (src/app/storable-text.ts)
  ['plain', 'a\u0000b', /NUL/],
  ['short', 'toolong', /5/],
  ['number', 1.5, /whole/],
  ['number', '1e3', /./],
  ['number', 2 ** 53, /./],
  ['ranged', 11, /10/],
  ['ranged', -1, /0/],
  ['decimal', 0.30000000000000004, /string/],
  ['decimal', '1e3', /./],
  ['decimal', 'NaN', /./],
  ['decimal2', '1.005', /2 digits/],
  ['money', '1.005', /2 digits/],
  ['money', '12,50', /./],
  ['yen', '1.5', /decimal point/],
  ['date', '2026-02-30', /2026-02/],
  ['date', '2023-02-29', /./],
  ['date', '2024-01-15T00:00:00Z', /./],
  ['datetime', '2024-01-15T10:00:00', /offset/],
  ['datetime', '2024-01-15T24:00:00Z', /./],
  ['datetime', '2024-01-15', /./],
  ['email', 'not-an-email', /example\.com/],
  ['email', 'a@localhost', /./],
  ['email', '"quoted"@example.com', /./],
  ['phone', '4155552671', /country/],
  ['phone', 14155552671, /string/],
  ['phoneUS', '+1 415 555 2671 ext. 12', /./],
  ['bool', 'true', /true or false/],
  ['bool', 1, /./],
  ['url', 'javascript:alert(1)', /http/],
  ['url', 'ftp://example.com/file', /http/],
  ['url', '//example.com', /./],
  ['url', 'https://user:pw@example.com/', /./],
  ['address', { line1: '742 Evergreen Terrace', countryCode: 'US' }, /city/],
  ['address', { line1: '742 Evergreen Terrace', city: 'Springfield' }, /countryCode/],
  ['address', { line1: '10 Downing St', city: 'London', countryCode: 'UK' }, /./],
  ['address', { line1: 'x', city: 'y', countryCode: 'US', street: 'z' }, /street/],
  ['address', '742 Evergreen Terrace, Springfield', /./],
  ['ref', '2345-2345-2345', /not found/],
  ['ref', foreign, /not found/],
  ['ref', e1, new RegExp(`not in collection ${targets.id}`)],
  ['ref', deletedTarget, /not found/],
  ['ref', 'T1', /./],
  ['ref', [t1], /./],
  ['anyRef', foreign, /not found/],
  ['refs', [t1, '2345-2345-2345'], /not found/],
  ['refs', [t1, e1], /not in collection/],
  ['refs', [t1, t1], /repeats/],
  ['refs', [t1, t2, t1, t2], /./],
  ['refs', t1, /./],
  ['file', '2345-2345-2345', /file/],
  ['file', 'file-abc', /file/],
  ['files', [FILE, FILE], /repeats/],
  ['files', FILE, /./],
  ['image', t1, /./],
  ['images', ['nope'], /./],
];

describe('valid values come back in canonical form', () => {
  it('every data type, on create (response and later read)', async () => {
    const input = Object.fromEntries(VALID().map(([column, value]) => [F(column), value]));
    const expected = Object.fromEntries(VALID().map(([column, , canonical]) => [F(column), canonical]));
    const res = await post(input);
    const created = expectOk(res, 201);
    expect(created.fields).toEqual(expected);
    expect(await read(created.id)).toEqual(created);
    // the display name reads the same display text (MONEY with currency, address on one line)
    expect(created.name).toBe('Café line 2 1.50 EUR 2024-02-29 742 Evergreen Terrace, Springfield, IL, 62701 AB, US');
  });

  it('every data type, one at a time, on update', async () => {
    for (const [column, value, canonical] of VALID()) {
      const updated = expectOk(await patch(subject, { [F(column)]: value }));
      expect(updated.fields[F(column)], column).toEqual(canonical);
    }
    const now = await read(subject);
    for (const [column, , canonical] of VALID()) expect(now.fields[F(column)], column).toEqual(canonical);
  });

  it('more canonical forms: NUMBER -0, DECIMAL from a JSON number, MONEY negative and padded, DATE_TIME offsets, punycode e-mail, default port', async () => {
    const cases: [string, unknown, unknown][] = [
      ['number', -0, 0],
      ['number', 9007199254740991, 9007199254740991],
      ['decimal', 19.99, '19.99'],
      ['decimal', '.5', '0.5'],
      ['decimal', '-0003.000', '-3'],
      ['decimal', '12345678901234567890.12345', '12345678901234567890.12345'],
      ['decimal2', '7', '7.00'],
      ['money', -3.5, '-3.50'],
      ['money', '0', '0.00'],
      ['datetime', '2024-01-15T10:00:00-0530', '2024-01-15T15:30:00.000Z'],
      ['datetime', '2024-12-31t23:00:00-02', '2025-01-01T01:00:00.000Z'],
      ['email', 'x@xn--bcher-kva.de', 'x@bücher.de'],
      ['url', 'http://example.com:80', 'http://example.com/'],
      ['url', 'https://bücher.de/ä', 'https://xn--bcher-kva.de/%C3%A4'],
      ['bool', true, true],
      ['phoneUS', '+442071838750', '+442071838750'],
    ];
    for (const [column, value, canonical] of cases) {
      const updated = expectOk(await patch(subject, { [F(column)]: value }));
      expect(updated.fields[F(column)], `${column} ${JSON.stringify(value)}`).toEqual(canonical);
    }
  });

  it('null, blank strings, [] and all-blank addresses clear a field of any type', async () => {
    const id = expectOk(await post(Object.fromEntries(VALID().map(([column, value]) => [F(column), value]))), 201).id;
    const empties: [string, unknown][] = [
      ['plain', null],
      ['html', '<p><br></p>'],
      ['number', ''],
      ['decimal', '  '],
      ['money', null],
      ['date', ''],
      ['datetime', null],
      ['email', ''],
      ['phone', null],
      ['bool', null],
      ['url', ''],
      ['address', { line1: ' ', city: '', countryCode: null }],
      ['ref', null],
      ['refs', []],
      ['files', []],
      ['image', ''],
    ];
    const cleared = expectOk(await patch(id, Object.fromEntries(empties.map(([column, value]) => [F(column), value]))));
    for (const [column] of empties) expect(cleared.fields, column).not.toHaveProperty(F(column));
    expect((await read(id)).fields).toEqual(cleared.fields);
  });
});

describe('invalid values are 400 naming fields.<dataFieldSimplyId>', () => {
  it('on create, one field at a time; nothing is written', async () => {
    const before = (await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${values.id}&limit=1`, { token: team.apiKey })).body.meta.pagination.total;
    // independent requests that write nothing: sent together
    const responses = await Promise.all(INVALID().map(([column, value]) => post({ [F(column)]: value })));
    INVALID().forEach(([column, value, message], i) => {
      const label = `${column} ${JSON.stringify(value)}`;
      const error = expectError(responses[i]!, 400, 'VALIDATION_ERROR', label);
      expect(error.details, label).toEqual([{ field: `fields.${F(column)}`, message: expect.stringMatching(message) }]);
    });
    const after = (await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${values.id}&limit=1`, { token: team.apiKey })).body.meta.pagination.total;
    expect(after).toBe(before);
  });

  it('on update, one field at a time; the record is unchanged', async () => {
    const before = await read(subject);
    for (const [column, value, message] of INVALID()) {
      const label = `${column} ${JSON.stringify(value)}`;
      const error = expectError(await patch(subject, { [F(column)]: value }), 400, 'VALIDATION_ERROR', label);
      expect(error.details, label).toEqual([{ field: `fields.${F(column)}`, message: expect.stringMatching(message) }]);
    }
    expect(await read(subject)).toEqual(before);
  });

  it('every invalid field is reported, not only the first', async () => {
    const firstPerColumn = new Map<string, unknown>();
    for (const [column, value] of INVALID()) if (!firstPerColumn.has(column) && !['ref', 'anyRef', 'refs'].includes(column)) firstPerColumn.set(column, value);
    const error = expectError(await post(Object.fromEntries([...firstPerColumn].map(([column, value]) => [F(column), value]))), 400, 'VALIDATION_ERROR');
    expect(error.details!.map((d) => d.field).sort()).toEqual([...firstPerColumn.keys()].map((c) => `fields.${F(c)}`).sort());
    // reference problems of several fields are reported together too
    const refs = expectError(await post({ [F('ref')]: e1, [F('anyRef')]: foreign, [F('refs')]: [t1, '2345-2345-2345'] }), 400, 'VALIDATION_ERROR');
    expect(refs.details!.map((d) => d.field).sort()).toEqual([`fields.${F('ref')}`, `fields.${F('anyRef')}`, `fields.${F('refs')}`].sort());
  });

  it('a valid value next to an invalid one is not written either', async () => {
    const before = await read(subject);
    expectError(await patch(subject, { [F('plain')]: 'changed', [F('bool')]: 'yes' }), 400, 'VALIDATION_ERROR');
    expect(await read(subject)).toEqual(before);
  });

  it('record references: only live records of the team, in the target collection when set', async () => {
    // the happy paths, stated once more next to the refusals
    expect(expectOk(await patch(subject, { [F('ref')]: t2, [F('anyRef')]: t1, [F('refs')]: [t1] })).fields).toMatchObject({ [F('ref')]: t2, [F('anyRef')]: t1, [F('refs')]: [t1] });
    const cases: [string, unknown, string][] = [
      ['ref', '2345-2345-2345', 'was not found'],
      ['ref', foreign, 'was not found'],
      ['ref', deletedTarget, 'was not found'],
      ['ref', e1, `is not in collection ${targets.id}`],
      ['anyRef', foreign, 'was not found'],
      ['anyRef', deletedTarget, 'was not found'],
      ['refs', [t1, foreign], 'was not found'],
      ['refs', [e1], `is not in collection ${targets.id}`],
    ];
    for (const [column, value, message] of cases) {
      for (const res of [await post({ [F(column)]: value }), await patch(subject, { [F(column)]: value })]) {
        const error = expectError(res, 400, 'VALIDATION_ERROR', `${column} ${JSON.stringify(value)}`);
        expect(error.details).toEqual([{ field: `fields.${F(column)}`, message: expect.stringContaining(message) }]);
      }
    }
    // the batch path checks them too, per item
    const batch = expectOk(
      await server.request('POST', '/v1/data-records/batch', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: values.id, records: [{ fields: { [F('ref')]: t1 } }, { fields: { [F('ref')]: foreign } }, { fields: { [F('refs')]: [e1] } }] },
      }),
    );
    expect(batch).toMatchObject({ created: 1, failed: 2 });
    expect(batch.results[1].error.details).toEqual([{ field: `records[1].fields.${F('ref')}`, message: expect.stringContaining('was not found') }]);
    expect(batch.results[2].error.details).toEqual([{ field: `records[2].fields.${F('refs')}`, message: expect.stringContaining('is not in collection') }]);
  });

  it('file and image ids must be well-formed and name live files of the team (file-XXXX-XXXX-XXXX)', async () => {
    const ok = expectOk(await patch(subject, { [F('file')]: 'file-ZZZZ-ZZZZ-ZZZZ', [F('images')]: ['file-2222-3333-4444'] }));
    expect(ok.fields).toMatchObject({ [F('file')]: 'file-ZZZZ-ZZZZ-ZZZZ', [F('images')]: ['file-2222-3333-4444'] });
    for (const bad of ['2345-2345-2345', 'file-2345-2345', 'FILE-2345-2345-2345', 'file-0000-0000-0000', 42, 'file-9999-9999-9999']) {
      const error = expectError(await patch(subject, { [F('file')]: bad }), 400, 'VALIDATION_ERROR', String(bad));
      expect(error.details).toEqual([{ field: `fields.${F('file')}`, message: expect.any(String) }]);
    }
  });
});
