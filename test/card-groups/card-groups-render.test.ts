// A record's card groups (docs/api/data-records.md "Card groups"): the list and the render of one
// group, FIELDS cards with the record's values, TABLE cards over FORWARD and REVERSE relationships
// (rows, columns, totals), multiDataRecordContext.creationAvailability for each reason
// (NO_EDITABLE_FIELDS, REQUIRED_FIELDS_READ_ONLY, TARGET_COLLECTION_NOT_FOUND) and the prePopulate
// field settings of REVERSE SINGLE_DATA_RECORD relationships; the caller's field permissions
// narrowing every card; fields removed after configuration; the record's read permission; other
// teams' ids; GraphQL; and a render whose statements do not grow with its rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole } from '../support/fixtures.ts';
import { postCollection } from '../support/collection-fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { countSql } from '../support/sql-counter.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2 });
const [team, other] = teams;

const call = (method: string, path: string, body?: unknown, token = team.apiKey) => server.request(method, path, { token, body });
const groupsOf = (collection: string) => `/v1/data-collections/${collection}/card-groups`;
const listOf = (record: string) => `/v1/data-records/${record}/card-groups`;
const renderOf = (record: string, group: string) => `/v1/data-records/${record}/card-groups/${group}/render`;
const byColumn = (c: any): Record<string, string> => Object.fromEntries(c.fields.map((x: any) => [x.columnName, x.id]));

let households: any, projects: any, people: any, donations: any;
let hh: Record<string, string>, pr: Record<string, string>, pe: Record<string, string>, dn: Record<string, string>;
let house: string, engine: string, notes: string, ada: string, grace: string;
let donationIds: string[];
let overview: any;
let contact: any;

beforeAll(async () => {
  households = await postCollection(server, team.apiKey, {
    name: 'Households',
    fields: [
      { title: 'Name', dataType: 'PLAIN_TEXT', columnName: 'name', isRequired: true },
      { title: 'City', dataType: 'PLAIN_TEXT', columnName: 'city' },
    ],
  });
  hh = byColumn(households);
  projects = await postCollection(server, team.apiKey, { name: 'Projects', fields: [{ title: 'Title', dataType: 'PLAIN_TEXT', columnName: 'title', isRequired: true }] });
  pr = byColumn(projects);
  people = await postCollection(server, team.apiKey, {
    name: 'People',
    dataRecordCalculatedNameFormula: '{first_name}',
    fields: [
      { title: 'First name', dataType: 'PLAIN_TEXT', columnName: 'first_name', isRequired: true },
      { title: 'Email', dataType: 'EMAIL_ADDRESS', columnName: 'email' },
      { title: 'Salary', dataType: 'NUMBER', columnName: 'salary' },
      { title: 'Household', dataType: 'SINGLE_DATA_RECORD', columnName: 'household', config: { targetDataCollectionSimplyId: households.id } },
      { title: 'Projects', dataType: 'MULTI_DATA_RECORD', columnName: 'projects', config: { targetDataCollectionSimplyId: projects.id } },
    ],
  });
  pe = byColumn(people);
  // the reverse sides: a project's members and a donation's donor point at people
  const members = expectOk(await call('POST', `/v1/data-collections/${projects.id}/fields`, { title: 'Members', dataType: 'MULTI_DATA_RECORD', columnName: 'members', config: { targetDataCollectionSimplyId: people.id } }), 201);
  pr.members = members.id;
  donations = await postCollection(server, team.apiKey, {
    name: 'Donations',
    fields: [
      { title: 'Amount', dataType: 'NUMBER', columnName: 'amount', isRequired: true },
      { title: 'Note', dataType: 'PLAIN_TEXT', columnName: 'note' },
      { title: 'Donor', dataType: 'SINGLE_DATA_RECORD', columnName: 'donor', isRequired: true, config: { targetDataCollectionSimplyId: people.id } },
    ],
  });
  dn = byColumn(donations);

  house = (await createRecord(server, team.apiKey, households.id, { [hh.name!]: 'Lovelace house', [hh.city!]: 'London' })).id;
  engine = (await createRecord(server, team.apiKey, projects.id, { [pr.title!]: 'Engine' })).id;
  notes = (await createRecord(server, team.apiKey, projects.id, { [pr.title!]: 'Notes' })).id;
  ada = (await createRecord(server, team.apiKey, people.id, { [pe.first_name!]: 'Ada', [pe.email!]: 'ada@example.org', [pe.salary!]: 100, [pe.household!]: house, [pe.projects!]: [notes, engine] })).id;
  grace = (await createRecord(server, team.apiKey, people.id, { [pe.first_name!]: 'Grace' })).id;
  expectOk(await call('PATCH', `/v1/data-records/${engine}`, { fields: { [pr.members!]: [ada, grace] } }));
  await createRecord(server, team.apiKey, projects.id, { [pr.title!]: 'Compilers', [pr.members!]: [grace] });
  donationIds = [];
  for (const amount of [10, 20, 30]) donationIds.push((await createRecord(server, team.apiKey, donations.id, { [dn.amount!]: amount, [dn.note!]: `gift ${amount}`, [dn.donor!]: ada })).id);
  await createRecord(server, team.apiKey, donations.id, { [dn.amount!]: 99, [dn.donor!]: grace });

  overview = expectOk(await call('POST', groupsOf(people.id), {
    name: 'Overview',
    cards: [
      { kind: 'FIELDS', title: 'About', dataFieldSimplyIds: [pe.salary, pe.email, pe.first_name] },
      { kind: 'TABLE', title: 'Household', dataFieldSimplyId: pe.household, columnFieldSimplyIds: [hh.city, hh.name] },
      { kind: 'TABLE', title: 'Projects', dataFieldSimplyId: pe.projects, columnFieldSimplyIds: [pr.title], rowLimit: 1 },
      { kind: 'TABLE', title: 'Donations', dataFieldSimplyId: dn.donor, columnFieldSimplyIds: [dn.amount, dn.note], rowLimit: 2 },
      { kind: 'TABLE', title: 'Member of', dataFieldSimplyId: pr.members, columnFieldSimplyIds: [pr.title] },
    ],
  }), 201);
  contact = expectOk(await call('POST', groupsOf(people.id), { name: 'Contact', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [pe.email] }] }), 201);
});

const cardsByTitle = (group: any) => Object.fromEntries(group.cards.map((c: any) => [c.title ?? `#${c.position}`, c]));

describe('GET /v1/data-records/{id}/card-groups', () => {
  it('lists the groups of the record’s collection in order, with the cards the caller will see and no values', async () => {
    const groups = expectOk(await call('GET', listOf(ada)));
    expect(groups.map((g: any) => [g.id, g.position, g.name])).toEqual([[overview.id, 0, 'Overview'], [contact.id, 1, 'Contact']]);
    expect(groups[0]).toMatchObject({ dataCardGroupSimplyId: overview.id, dataRecordSimplyId: ada, dataCollectionSimplyId: people.id });
    expect(groups[0].cards).toEqual([
      { position: 0, kind: 'FIELDS', title: 'About', dataFieldSimplyIds: [pe.salary, pe.email, pe.first_name], dataFieldSimplyId: null, direction: null, targetDataCollectionSimplyId: null, columnFieldSimplyIds: null },
      { position: 1, kind: 'TABLE', title: 'Household', dataFieldSimplyIds: null, dataFieldSimplyId: pe.household, direction: 'FORWARD', targetDataCollectionSimplyId: households.id, columnFieldSimplyIds: [hh.city, hh.name] },
      { position: 2, kind: 'TABLE', title: 'Projects', dataFieldSimplyIds: null, dataFieldSimplyId: pe.projects, direction: 'FORWARD', targetDataCollectionSimplyId: projects.id, columnFieldSimplyIds: [pr.title] },
      { position: 3, kind: 'TABLE', title: 'Donations', dataFieldSimplyIds: null, dataFieldSimplyId: dn.donor, direction: 'REVERSE', targetDataCollectionSimplyId: donations.id, columnFieldSimplyIds: [dn.amount, dn.note] },
      { position: 4, kind: 'TABLE', title: 'Member of', dataFieldSimplyIds: null, dataFieldSimplyId: pr.members, direction: 'REVERSE', targetDataCollectionSimplyId: projects.id, columnFieldSimplyIds: [pr.title] },
    ]);
    expect(JSON.stringify(groups)).not.toContain('ada@example.org');
  });

  it('a collection without groups lists none', async () => {
    expect(expectOk(await call('GET', listOf(house)))).toEqual([]);
  });
});

describe('GET …/card-groups/{id}/render', () => {
  it('renders FIELDS values and TABLE rows of every relationship kind, with full access', async () => {
    const g = expectOk(await call('GET', renderOf(ada, overview.id)));
    expect(g).toMatchObject({ id: overview.id, dataCardGroupSimplyId: overview.id, dataRecordSimplyId: ada, dataCollectionSimplyId: people.id, name: 'Overview', position: 0 });
    const c = cardsByTitle(g);
    expect(c.About).toMatchObject({ kind: 'FIELDS', rows: null, columns: null, multiDataRecordContext: null });
    expect(c.About.fields).toEqual([
      { dataFieldSimplyId: pe.salary, title: 'Salary', columnName: 'salary', dataType: 'NUMBER', value: 100 },
      { dataFieldSimplyId: pe.email, title: 'Email', columnName: 'email', dataType: 'EMAIL_ADDRESS', value: 'ada@example.org' },
      { dataFieldSimplyId: pe.first_name, title: 'First name', columnName: 'first_name', dataType: 'PLAIN_TEXT', value: 'Ada' },
    ]);

    const canCreate = { canCreate: true, reason: null, blockingFields: [] };
    // FORWARD, SINGLE_DATA_RECORD: the household the record names
    expect(c.Household).toMatchObject({ kind: 'TABLE', fields: null, dataFieldSimplyId: pe.household, totalRows: 1, hasMoreRows: false });
    expect(c.Household.columns.map((x: any) => x.dataFieldSimplyId)).toEqual([hh.city, hh.name]);
    expect(c.Household.rows).toEqual([expect.objectContaining({ id: house, dataCollectionSimplyId: households.id, name: 'Lovelace house', fields: { [hh.city!]: 'London', [hh.name!]: 'Lovelace house' } })]);
    expect(c.Household.multiDataRecordContext).toEqual({
      dataFieldSimplyId: pe.household, direction: 'FORWARD', relationDataType: 'SINGLE_DATA_RECORD', targetDataCollectionSimplyId: households.id,
      creationAvailability: canCreate, fieldSettings: null,
    });
    // FORWARD, MULTI_DATA_RECORD: in the value's order, cut at rowLimit, counted whole
    expect(c.Projects).toMatchObject({ totalRows: 2, hasMoreRows: true });
    expect(c.Projects.rows.map((r: any) => [r.id, r.fields])).toEqual([[notes, { [pr.title!]: 'Notes' }]]);
    expect(c.Projects.multiDataRecordContext).toMatchObject({ direction: 'FORWARD', relationDataType: 'MULTI_DATA_RECORD', creationAvailability: canCreate, fieldSettings: null });
    // REVERSE, SINGLE_DATA_RECORD: the donations whose donor is the record, newest first; a new one pre-fills its donor
    expect(c.Donations).toMatchObject({ totalRows: 3, hasMoreRows: true });
    expect(c.Donations.rows.map((r: any) => [r.id, r.fields])).toEqual([
      [donationIds[2], { [dn.amount!]: 30, [dn.note!]: 'gift 30' }],
      [donationIds[1], { [dn.amount!]: 20, [dn.note!]: 'gift 20' }],
    ]);
    expect(c.Donations.multiDataRecordContext).toEqual({
      dataFieldSimplyId: dn.donor, direction: 'REVERSE', relationDataType: 'SINGLE_DATA_RECORD', targetDataCollectionSimplyId: donations.id,
      creationAvailability: canCreate,
      fieldSettings: { prePopulateFieldSimplyId: dn.donor, prePopulateFieldCompositeKey: `${donations.id}.donor` },
    });
    // REVERSE, MULTI_DATA_RECORD: projects listing the record among their members; nothing to pre-fill
    expect(c['Member of'].rows.map((r: any) => r.id)).toEqual([engine]);
    expect(c['Member of']).toMatchObject({ totalRows: 1, hasMoreRows: false });
    expect(c['Member of'].multiDataRecordContext).toMatchObject({ direction: 'REVERSE', relationDataType: 'MULTI_DATA_RECORD', fieldSettings: null, creationAvailability: canCreate });
  });

  it('renders another record with its own values (no related records: empty tables)', async () => {
    const c = cardsByTitle(expectOk(await call('GET', renderOf(grace, overview.id))));
    expect(c.About.fields.map((x: any) => x.value)).toEqual([null, null, 'Grace']);
    expect(c.Household).toMatchObject({ rows: [], totalRows: 0, hasMoreRows: false });
    expect(c.Projects).toMatchObject({ rows: [], totalRows: 0 });
    expect(c.Donations.rows.map((r: any) => r.fields[dn.amount!])).toEqual([99]);
    expect(c['Member of'].rows).toHaveLength(2);
  });
});

describe('the caller’s field permissions', () => {
  it('hide fields, columns and cards the role cannot read; a target it cannot read is TARGET_COLLECTION_NOT_FOUND; read-only targets NO_EDITABLE_FIELDS', async () => {
    const role = await createRole(server, team, {
      name: 'Narrow reader',
      dataPermissions: [
        { dataCollectionSimplyId: people.id, level: 'READ' },
        { dataCollectionSimplyId: households.id, level: 'READ' },
        { dataCollectionSimplyId: donations.id, level: 'READ' },
      ],
      fieldPermissions: [
        { dataFieldSimplyId: pe.salary, level: 'NONE' },
        { dataFieldSimplyId: pe.household, level: 'NONE' },
        { dataFieldSimplyId: dn.note, level: 'NONE' },
      ],
    });
    const key = (await createApiKey(server, team, { name: 'narrow', teamRoleSimplyId: role })).key;
    const g = expectOk(await call('GET', renderOf(ada, overview.id), undefined, key));
    const c = cardsByTitle(g);
    // the household card is gone (its field is hidden), the others stay in their places
    expect(g.cards.map((x: any) => [x.position, x.title])).toEqual([[0, 'About'], [2, 'Projects'], [3, 'Donations'], [4, 'Member of']]);
    expect(c.About.fields.map((x: any) => x.dataFieldSimplyId)).toEqual([pe.email, pe.first_name]);
    // Projects cannot be read: no rows, no columns, and creation refused for that reason
    for (const title of ['Projects', 'Member of']) {
      expect(c[title]).toMatchObject({ rows: [], columns: [], totalRows: 0 });
      expect(c[title].multiDataRecordContext).toMatchObject({ targetDataCollectionSimplyId: projects.id, creationAvailability: { canCreate: false, reason: 'TARGET_COLLECTION_NOT_FOUND', blockingFields: [] }, fieldSettings: null });
    }
    // donations: the hidden note is neither a column nor a value
    expect(c.Donations.columns.map((x: any) => x.dataFieldSimplyId)).toEqual([dn.amount]);
    expect(c.Donations.rows.map((r: any) => r.fields)).toEqual([{ [dn.amount!]: 30 }, { [dn.amount!]: 20 }]);
    expect(c.Donations.multiDataRecordContext.creationAvailability).toEqual({
      canCreate: false, reason: 'NO_EDITABLE_FIELDS',
      blockingFields: [{ dataFieldSimplyId: dn.amount, title: 'Amount', access: 'READ' }, { dataFieldSimplyId: dn.donor, title: 'Donor', access: 'READ' }],
    });
    expect(JSON.stringify(g)).not.toMatch(/gift|Lovelace|"value":100/);
    // the list shows the same cards
    const [listed] = expectOk(await call('GET', listOf(ada), undefined, key));
    expect(listed.cards.map((x: any) => x.position)).toEqual([0, 2, 3, 4]);
    expect(listed.cards[0].dataFieldSimplyIds).toEqual([pe.email, pe.first_name]);
    expect(listed.cards[2].columnFieldSimplyIds).toEqual([dn.amount]);
  });

  it('REQUIRED_FIELDS_READ_ONLY lists the required fields the caller cannot write (hidden ones without their title)', async () => {
    const role = await createRole(server, team, {
      name: 'Donation clerk',
      dataPermissions: [
        { dataCollectionSimplyId: people.id, level: 'READ' },
        { dataCollectionSimplyId: donations.id, level: 'EDIT' },
      ],
      fieldPermissions: [
        { dataFieldSimplyId: dn.amount, level: 'NONE' },
        { dataFieldSimplyId: dn.donor, level: 'READ' },
      ],
    });
    const key = (await createApiKey(server, team, { name: 'clerk', teamRoleSimplyId: role })).key;
    const c = cardsByTitle(expectOk(await call('GET', renderOf(ada, overview.id), undefined, key)));
    expect(c.Donations.multiDataRecordContext.creationAvailability).toEqual({
      canCreate: false, reason: 'REQUIRED_FIELDS_READ_ONLY',
      blockingFields: [{ dataFieldSimplyId: dn.amount, title: null, access: 'NONE' }, { dataFieldSimplyId: dn.donor, title: 'Donor', access: 'READ' }],
    });
    // the donor field is readable, so the settings to pre-fill it are there; the note is the only column left
    expect(c.Donations.multiDataRecordContext.fieldSettings).toEqual({ prePopulateFieldSimplyId: dn.donor, prePopulateFieldCompositeKey: `${donations.id}.donor` });
    expect(c.Donations.columns.map((x: any) => x.dataFieldSimplyId)).toEqual([dn.note]);
  });

  it('a role that cannot read the REVERSE relationship field sees no card for it', async () => {
    const role = await createRole(server, team, {
      name: 'No donors',
      dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }, { dataCollectionSimplyId: donations.id, level: 'EDIT' }],
      fieldPermissions: [{ dataFieldSimplyId: dn.donor, level: 'NONE' }],
    });
    const key = (await createApiKey(server, team, { name: 'no donors', teamRoleSimplyId: role })).key;
    const g = expectOk(await call('GET', renderOf(ada, overview.id), undefined, key));
    expect(g.cards.map((x: any) => x.title)).not.toContain('Donations');
  });

  it('a token without records:write can create nothing: NO_EDITABLE_FIELDS (session token and OAuth token alike)', async () => {
    const session = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['records:read'] }), 201).token;
    const oauth = await oauthToken(server, team, 'records:read');
    for (const token of [session, oauth]) {
      const c = cardsByTitle(expectOk(await call('GET', renderOf(ada, overview.id), undefined, token)));
      expect(c.Donations.rows).toHaveLength(2);
      expect(c.Donations.multiDataRecordContext.creationAvailability).toMatchObject({ canCreate: false, reason: 'NO_EDITABLE_FIELDS' });
      expect(c.Household.multiDataRecordContext.creationAvailability).toMatchObject({ canCreate: false, reason: 'NO_EDITABLE_FIELDS' });
    }
    const writer = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['records:read', 'records:write'] }), 201).token;
    expect(cardsByTitle(expectOk(await call('GET', renderOf(ada, overview.id), undefined, writer))).Donations.multiDataRecordContext.creationAvailability.canCreate).toBe(true);
  });
});

describe('targets and fields that went away', () => {
  it('a target archived, or dropped from the field, is TARGET_COLLECTION_NOT_FOUND with no rows; removed fields and relationships just leave the cards', async () => {
    const target = await postCollection(server, team.apiKey, { name: 'Teams', fields: [{ title: 'Label', dataType: 'PLAIN_TEXT', columnName: 'label' }] });
    const source = await postCollection(server, team.apiKey, {
      name: 'Players',
      fields: [
        { title: 'Nick', dataType: 'PLAIN_TEXT', columnName: 'nick' },
        { title: 'Old', dataType: 'PLAIN_TEXT', columnName: 'old' },
        { title: 'Team', dataType: 'SINGLE_DATA_RECORD', columnName: 'team', config: { targetDataCollectionSimplyId: target.id } },
        { title: 'Former', dataType: 'MULTI_DATA_RECORD', columnName: 'former', config: { targetDataCollectionSimplyId: target.id } },
      ],
    });
    const s = byColumn(source);
    const t = (await createRecord(server, team.apiKey, target.id, { [target.fields[0].id]: 'Reds' })).id;
    const player = (await createRecord(server, team.apiKey, source.id, { [s.nick!]: 'P', [s.old!]: 'x', [s.team!]: t, [s.former!]: [t] })).id;
    const group = expectOk(await call('POST', groupsOf(source.id), {
      name: 'Player',
      cards: [
        { kind: 'FIELDS', title: 'Names', dataFieldSimplyIds: [s.old, s.nick] },
        { kind: 'TABLE', title: 'Team', dataFieldSimplyId: s.team, columnFieldSimplyIds: [target.fields[0].id] },
        { kind: 'TABLE', title: 'Former', dataFieldSimplyId: s.former },
      ],
    }), 201);
    expect(cardsByTitle(expectOk(await call('GET', renderOf(player, group.id)))).Team.rows).toHaveLength(1);

    expectOk(await call('POST', `/v1/data-collections/${target.id}/archive`, { isArchived: true }));
    let c = cardsByTitle(expectOk(await call('GET', renderOf(player, group.id))));
    expect(c.Team).toMatchObject({ rows: [], columns: [], totalRows: 0 });
    expect(c.Team.multiDataRecordContext.creationAvailability).toEqual({ canCreate: false, reason: 'TARGET_COLLECTION_NOT_FOUND', blockingFields: [] });
    expectOk(await call('POST', `/v1/data-collections/${target.id}/archive`, { isArchived: false }));

    expectOk(await call('PATCH', `/v1/data-collections/${source.id}/fields/${s.team}`, { config: {} }));
    c = cardsByTitle(expectOk(await call('GET', renderOf(player, group.id))));
    expect(c.Team.multiDataRecordContext).toMatchObject({ targetDataCollectionSimplyId: null, creationAvailability: { canCreate: false, reason: 'TARGET_COLLECTION_NOT_FOUND' } });
    expect(c.Team.rows).toEqual([]);

    expectOk(await call('DELETE', `/v1/data-collections/${source.id}/fields/${s.old}`));
    expectOk(await call('DELETE', `/v1/data-collections/${source.id}/fields/${s.former}`));
    const g = expectOk(await call('GET', renderOf(player, group.id)));
    expect(g.cards.map((x: any) => x.title)).toEqual(['Names', 'Team']);
    expect(g.cards[0].fields.map((x: any) => x.dataFieldSimplyId)).toEqual([s.nick]);
    expect(expectOk(await call('GET', listOf(player)))[0].cards.map((x: any) => x.title)).toEqual(['Names', 'Team']);
  });

  it('a FIELDS card whose every field is hidden is left out', async () => {
    const role = await createRole(server, team, { name: 'No email', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }], fieldPermissions: [{ dataFieldSimplyId: pe.email, level: 'NONE' }] });
    const key = (await createApiKey(server, team, { name: 'no email', teamRoleSimplyId: role })).key;
    expect(expectOk(await call('GET', renderOf(ada, contact.id), undefined, key)).cards).toEqual([]);
  });
});

describe('reading the record is required', () => {
  it('refuses what GET /v1/data-records/{id} refuses', async () => {
    const noRole = (await createApiKey(server, team, { name: 'no role' })).key;
    const otherCollection = await createRole(server, team, { name: 'Households only', dataPermissions: [{ dataCollectionSimplyId: households.id, level: 'READ' }] });
    const elsewhere = (await createApiKey(server, team, { name: 'households only', teamRoleSimplyId: otherCollection })).key;
    const schemaOnly = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read'] }), 201).token;
    for (const path of [listOf(ada), renderOf(ada, overview.id)]) {
      for (const token of [noRole, elsewhere, schemaOnly]) {
        expectError(await call('GET', path, undefined, token), 403, 'PERMISSION_DENIED', path);
        expect((await call('GET', `/v1/data-records/${ada}`, undefined, token)).status).toBe(403);
      }
      expectError(await server.request('GET', path), 401, 'UNAUTHENTICATED');
    }
    // a signed-in team admin reads them
    expect(expectOk(await server.request('GET', renderOf(ada, overview.id), { token: team.userToken, teamId: team.teamSimplyId })).cards).toHaveLength(5);
  });
});

describe('other teams and unknown ids', () => {
  it('another team’s record or group, a group of another collection, or an unknown id is 404; malformed ids 400', async () => {
    const theirs = await postCollection(server, other.apiKey, { name: 'Theirs', fields: [{ title: 'X', dataType: 'PLAIN_TEXT', columnName: 'x' }] });
    const theirRecord = (await createRecord(server, other.apiKey, theirs.id, { [theirs.fields[0].id]: 'secret' })).id;
    const theirGroup = expectOk(await call('POST', groupsOf(theirs.id), { name: 'Theirs', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [theirs.fields[0].id] }] }, other.apiKey), 201).id;
    const householdGroup = expectOk(await call('POST', groupsOf(households.id), { name: 'House', cards: [] }), 201).id;
    for (const path of [listOf(theirRecord), renderOf(theirRecord, theirGroup), renderOf(theirRecord, overview.id), renderOf(ada, theirGroup), renderOf(ada, householdGroup), renderOf(ada, 'cgrp-ZZZZ-ZZZZ-ZZZ2'), listOf('ZZZZ-ZZZZ-ZZZ2')]) {
      const error = expectError(await call('GET', path), 404, 'NOT_FOUND', path);
      expect(error.message).not.toContain('secret');
    }
    for (const path of [listOf('12345'), renderOf('12345', overview.id), renderOf(ada, '12345'), renderOf(ada, 'view-ZZZZ-ZZZZ-ZZZ2')]) {
      expectError(await call('GET', path), 400, 'VALIDATION_ERROR', path);
    }
    // they see their own
    expect(expectOk(await call('GET', renderOf(theirRecord, theirGroup), undefined, other.apiKey)).cards[0].fields[0].value).toBe('secret');
  });
});

describe('GraphQL', () => {
  it('serves the list and the render with the same answers and codes', async () => {
    const data = gqlData(
      await server.graphql(
        `query($r: String!, $g: String!) {
          dataRecordCardGroups(dataRecordSimplyId: $r) { id cards { kind } }
          dataRecordCardGroupRender(dataRecordSimplyId: $r, dataCardGroupSimplyId: $g) {
            cards { title rows { id fields } totalRows multiDataRecordContext { creationAvailability { canCreate reason } fieldSettings { prePopulateFieldSimplyId } } }
          }
        }`,
        { r: ada, g: overview.id },
        { token: team.apiKey },
      ),
    );
    expect(data.dataRecordCardGroups.map((g: any) => g.id)).toEqual([overview.id, contact.id]);
    const donationsCard = data.dataRecordCardGroupRender.cards.find((c: any) => c.title === 'Donations');
    expect(donationsCard).toMatchObject({ totalRows: 3, multiDataRecordContext: { creationAvailability: { canCreate: true, reason: null }, fieldSettings: { prePopulateFieldSimplyId: dn.donor } } });
    expectGqlError(await server.graphql(`query($r: String!, $g: String!) { dataRecordCardGroupRender(dataRecordSimplyId: $r, dataCardGroupSimplyId: $g) { id } }`, { r: ada, g: 'cgrp-ZZZZ-ZZZZ-ZZZ2' }, { token: team.apiKey }), 'NOT_FOUND', 404);
  });
});

describe('cost', () => {
  it('a render costs the same statements whatever the number of related records', async () => {
    const sql = countSql(server.app.services.pool);
    const render = () => call('GET', renderOf(grace, overview.id));
    // one related record of each kind to begin with (an empty FORWARD table reads nothing at all)
    expectOk(await call('PATCH', `/v1/data-records/${grace}`, { fields: { [pe.projects!]: [engine] } }));
    expectOk(await render()); // credential and schema warm
    const before = await sql.measure(render);
    // many more related records of every table kind
    const more = [];
    for (let i = 0; i < 12; i++) more.push((await createRecord(server, team.apiKey, projects.id, { [pr.title!]: `P${i}`, [pr.members!]: [grace] })).id);
    for (let i = 0; i < 12; i++) await createRecord(server, team.apiKey, donations.id, { [dn.amount!]: i + 1, [dn.donor!]: grace });
    expectOk(await call('PATCH', `/v1/data-records/${grace}`, { fields: { [pe.projects!]: more } }));
    expectOk(await render());
    const after = await sql.measure(render);
    const c = cardsByTitle(expectOk(await render()));
    expect(c['Member of'].rows).toHaveLength(10);
    expect(c.Projects.totalRows).toBe(12);
    expect(c.Donations.totalRows).toBe(13);
    expect(after.length, after.join('\n')).toBe(before.length);
    // the record, the group's row, one read of every FORWARD table's records, one search per REVERSE table
    expect(after.length, after.join('\n')).toBe(5);
  });
});
