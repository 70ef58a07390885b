// Card-group administration (docs/api/data-collections.md "Card groups"): create, list, replace
// and delete the groups of a collection, positions kept 0…n-1, every invalid configuration a 400
// naming the card and field, the per-collection limit, what a group reports after its fields are
// removed, the privileged tier (session and OAuth tokens, keys and members without TEAM_SETTINGS
// edit refused), other teams' ids 404, and the same operations over GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { postCollection } from '../support/collection-fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { dataCardGroupId } from '../../src/modules/card-groups/card-groups.ids.ts';

const { server, teams } = useServer({ teams: 2 });
const [team, other] = teams;

const groupsOf = (collection: string) => `/v1/data-collections/${collection}/card-groups`;
const call = (method: string, path: string, body?: unknown, token = team.apiKey) => server.request(method, path, { token, body });

let people: any;
let households: any;
let donations: any;
let smart: any;
let foreign: any;
let foreignGroup: string;
let f: Record<string, string>;
let h: Record<string, string>;
let d: Record<string, string>;

const byColumn = (c: any) => Object.fromEntries(c.fields.map((x: any) => [x.columnName, x.id]));

beforeAll(async () => {
  households = await postCollection(server, team.apiKey, {
    name: 'Households',
    fields: [
      { title: 'Name', dataType: 'PLAIN_TEXT', columnName: 'name', isRequired: true },
      { title: 'City', dataType: 'PLAIN_TEXT', columnName: 'city' },
    ],
  });
  h = byColumn(households);
  people = await postCollection(server, team.apiKey, {
    name: 'People',
    fields: [
      { title: 'First name', dataType: 'PLAIN_TEXT', columnName: 'first_name' },
      { title: 'Email', dataType: 'EMAIL_ADDRESS', columnName: 'email' },
      { title: 'Household', dataType: 'SINGLE_DATA_RECORD', columnName: 'household', config: { targetDataCollectionSimplyId: households.id } },
      { title: 'Anything', dataType: 'MULTI_DATA_RECORD', columnName: 'anything' },
    ],
  });
  f = byColumn(people);
  donations = await postCollection(server, team.apiKey, {
    name: 'Donations',
    fields: [
      { title: 'Amount', dataType: 'NUMBER', columnName: 'amount' },
      { title: 'Donor', dataType: 'SINGLE_DATA_RECORD', columnName: 'donor', config: { targetDataCollectionSimplyId: people.id } },
    ],
  });
  d = byColumn(donations);
  smart = await postCollection(server, team.apiKey, { name: 'Some people', type: 'SMART', parentDataCollectionSimplyId: people.id, filterCriteria: [{ field: f.first_name, operator: 'eq', value: 'Ada' }] });
  foreign = await postCollection(server, other.apiKey, { name: 'Theirs', fields: [{ title: 'X', dataType: 'PLAIN_TEXT', columnName: 'x' }] });
  foreignGroup = expectOk(await call('POST', groupsOf(foreign.id), { name: 'Theirs', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [foreign.fields[0].id] }] }, other.apiKey), 201).id;
});

const overview = () => ({
  name: { en: 'Overview', de: 'Übersicht' },
  cards: [
    { kind: 'FIELDS', title: 'Contact', dataFieldSimplyIds: [f.email, f.first_name] },
    { kind: 'TABLE', title: 'Household', dataFieldSimplyId: f.household, columnFieldSimplyIds: [h.city, h.name], rowLimit: 5 },
    { kind: 'TABLE', dataFieldSimplyId: d.donor, columnFieldSimplyIds: [d.amount] },
  ],
});

describe('card groups of a collection', () => {
  it('POST creates a group and answers it with its cards resolved (FORWARD and REVERSE inferred)', async () => {
    const g = expectOk(await call('POST', groupsOf(people.id), overview()), 201);
    expect(g).toMatchObject({ id: expect.stringMatching(/^cgrp-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/), dataCollectionSimplyId: people.id, name: { en: 'Overview', de: 'Übersicht' }, position: 0 });
    expect(g.dataCardGroupSimplyId).toBe(g.id);
    expect(g.cards).toEqual([
      { position: 0, kind: 'FIELDS', title: 'Contact', dataFieldSimplyIds: [f.email, f.first_name], dataFieldSimplyId: null, direction: null, targetDataCollectionSimplyId: null, columnFieldSimplyIds: null, rowLimit: null, problems: [] },
      { position: 1, kind: 'TABLE', title: 'Household', dataFieldSimplyIds: null, dataFieldSimplyId: f.household, direction: 'FORWARD', targetDataCollectionSimplyId: households.id, columnFieldSimplyIds: [h.city, h.name], rowLimit: 5, problems: [] },
      { position: 2, kind: 'TABLE', title: null, dataFieldSimplyIds: null, dataFieldSimplyId: d.donor, direction: 'REVERSE', targetDataCollectionSimplyId: donations.id, columnFieldSimplyIds: [d.amount], rowLimit: 10, problems: [] },
    ]);
    const listed = expectOk(await call('GET', groupsOf(people.id)));
    expect(listed.map((x: any) => x.id)).toEqual([g.id]);
    expect(listed[0]).toEqual(g);
  });

  it('positions: appended last by default, inserted where asked, moved by PUT, closed up on DELETE', async () => {
    const c = await postCollection(server, team.apiKey, { name: 'Ordered', fields: [{ title: 'A', dataType: 'PLAIN_TEXT', columnName: 'a' }] });
    const card = [{ kind: 'FIELDS', dataFieldSimplyIds: [c.fields[0].id] }];
    const make = async (name: string, position?: number) => expectOk(await call('POST', groupsOf(c.id), { name, cards: card, ...(position === undefined ? {} : { position }) }), 201);
    const a = await make('a');
    const b = await make('b');
    const front = await make('front', 0);
    expect(front.position).toBe(0);
    const beyond = await make('beyond', 99);
    expect(beyond.position).toBe(3);
    const names = async () => expectOk(await call('GET', groupsOf(c.id))).map((g: any) => `${g.position}:${g.name}`);
    expect(await names()).toEqual(['0:front', '1:a', '2:b', '3:beyond']);
    const moved = expectOk(await call('PUT', `${groupsOf(c.id)}/${beyond.id}`, { name: 'beyond', cards: card, position: 1 }));
    expect(moved.position).toBe(1);
    expect(await names()).toEqual(['0:front', '1:beyond', '2:a', '3:b']);
    // no position: it keeps its place
    expectOk(await call('PUT', `${groupsOf(c.id)}/${a.id}`, { name: 'a2', cards: [] }));
    expect(await names()).toEqual(['0:front', '1:beyond', '2:a2', '3:b']);
    expect(expectOk(await call('DELETE', `${groupsOf(c.id)}/${front.id}`))).toEqual({ id: front.id, deleted: true });
    expect(await names()).toEqual(['0:beyond', '1:a2', '2:b']);
    expectError(await call('DELETE', `${groupsOf(c.id)}/${front.id}`), 404, 'NOT_FOUND');
    expect(b.position).toBe(1);
  });

  it('PUT replaces the name and every card', async () => {
    const g = expectOk(await call('POST', groupsOf(people.id), overview()), 201);
    const replaced = expectOk(await call('PUT', `${groupsOf(people.id)}/${g.id}`, { name: 'Just the name', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.first_name] }] }));
    expect(replaced).toMatchObject({ id: g.id, name: 'Just the name', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.first_name] }] });
    expect(replaced.cards).toHaveLength(1);
    expect(new Date(replaced.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(g.updatedAt).getTime());
  });

  it('an explicit direction: REVERSE of a field pointing here, refused for a field that does not', async () => {
    const g = expectOk(await call('POST', groupsOf(people.id), { name: 'Explicit', cards: [{ kind: 'TABLE', dataFieldSimplyId: d.donor, direction: 'REVERSE' }] }), 201);
    expect(g.cards[0]).toMatchObject({ direction: 'REVERSE', targetDataCollectionSimplyId: donations.id, columnFieldSimplyIds: [] });
    const error = expectError(await call('POST', groupsOf(people.id), { name: 'Wrong', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.household, direction: 'REVERSE' }] }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'cards.0.dataFieldSimplyId', message: expect.stringContaining('does not point at this collection') }]);
    const forward = expectError(await call('POST', groupsOf(people.id), { name: 'Wrong', cards: [{ kind: 'TABLE', dataFieldSimplyId: d.donor, direction: 'FORWARD' }] }), 400, 'VALIDATION_ERROR');
    expect(forward.details?.[0]).toMatchObject({ field: 'cards.0.dataFieldSimplyId', message: expect.stringContaining('not a field of this collection') });
  });
});

describe('invalid configurations: 400 naming the card and field', () => {
  const cases: [string, () => unknown, string, RegExp][] = [
    ['an unknown field in a FIELDS card', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.first_name, 'fld-AAAA-AAAA-AAAA'] }] }), 'cards.0.dataFieldSimplyIds.1', /not a field of this collection/],
    ['another collection’s field in a FIELDS card', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [h.city] }] }), 'cards.0.dataFieldSimplyIds.0', /not a field of this collection/],
    ['another team’s field', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [foreign.fields[0].id] }] }), 'cards.0.dataFieldSimplyIds.0', /not a field of this collection/],
    ['a TABLE over a field that is no relationship', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.email }] }), 'cards.0.dataFieldSimplyId', /EMAIL_ADDRESS field: a TABLE card needs a SINGLE_DATA_RECORD or MULTI_DATA_RECORD field/],
    ['a TABLE over an unknown field', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: 'fld-AAAA-AAAA-AAAA' }] }), 'cards.0.dataFieldSimplyId', /not a field of this collection, nor of a collection pointing at it/],
    ['a TABLE over a relationship between two other collections', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.email] }, { kind: 'TABLE', dataFieldSimplyId: h.name }] }), 'cards.1.dataFieldSimplyId', /PLAIN_TEXT field/],
    ['a TABLE over a relationship field without a target', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.anything }] }), 'cards.0.dataFieldSimplyId', /names no targetDataCollectionSimplyId/],
    ['a column that is not a field of the target', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.household, columnFieldSimplyIds: [h.city, f.email] }] }), 'cards.0.columnFieldSimplyIds.1', /not a field of the target collection/],
    ['a REVERSE column of this collection', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: d.donor, columnFieldSimplyIds: [f.email] }] }), 'cards.0.columnFieldSimplyIds.0', /not a field of the target collection/],
    ['an unknown kind', () => ({ name: 'x', cards: [{ kind: 'CHART', dataFieldSimplyIds: [f.email] }] }), 'cards.0.kind', /must be one of FIELDS, TABLE/],
    ['a FIELDS card without fields', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [] }] }), 'cards.0.dataFieldSimplyIds', /at least one/],
    ['a repeated field', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.email, f.email] }] }), 'cards.0.dataFieldSimplyIds.1', /repeats/],
    ['a malformed field id', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: ['12'] }] }), 'cards.0.dataFieldSimplyIds.0', /fld-XXXX/],
    ['too many fields', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: Array.from({ length: 51 }, (_, i) => `fld-AAAA-AAAA-${1000 + i}`) }] }), 'cards.0.dataFieldSimplyIds', /at most 50/],
    ['too many columns', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.household, columnFieldSimplyIds: Array.from({ length: 21 }, (_, i) => `fld-AAAA-AAAA-${2000 + i}`) }] }), 'cards.0.columnFieldSimplyIds', /at most 20/],
    ['a rowLimit out of range', () => ({ name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.household, rowLimit: 101 }] }), 'cards.0.rowLimit', /1 to 100/],
    ['too many cards', () => ({ name: 'x', cards: Array.from({ length: 21 }, () => ({ kind: 'FIELDS', dataFieldSimplyIds: [f.email] })) }), 'cards', /at most 20 cards/],
    ['an unknown key of a card', () => ({ name: 'x', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.email], color: 'red' }] }), 'cards.0.color', /not a known field/],
    ['an unknown key of the group', () => ({ name: 'x', cards: [], color: 'red' }), 'color', /not a known field/],
    ['no name', () => ({ cards: [] }), 'name', /./],
    ['no cards', () => ({ name: 'x' }), 'cards', /./],
    ['a negative position', () => ({ name: 'x', cards: [], position: -1 }), 'position', /≥ 0/],
  ];

  it.each(cases)('%s', async (_what, body, field, message) => {
    for (const [method, path] of [['POST', groupsOf(people.id)]] as const) {
      const error = expectError(await call(method, path, body()), 400, 'VALIDATION_ERROR', field);
      const detail = error.details?.find((x) => x.field === field);
      expect(detail, JSON.stringify(error.details)).toBeDefined();
      expect(detail!.message).toMatch(message);
    }
  });

  it('PUT refuses the same bodies, and changes nothing', async () => {
    const g = expectOk(await call('POST', groupsOf(people.id), overview()), 201);
    for (const [, body, field] of cases) {
      const error = expectError(await call('PUT', `${groupsOf(people.id)}/${g.id}`, body()), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field)).toContain(field);
    }
    expect(expectOk(await call('GET', groupsOf(people.id))).find((x: any) => x.id === g.id).cards).toHaveLength(3);
  });

  it('a SMART collection takes no card groups (its records are its source’s)', async () => {
    const error = expectError(await call('POST', groupsOf(smart.id), { name: 'x', cards: [] }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'dataCollectionSimplyId', message: 'is a SMART collection' }]);
    expect(expectOk(await call('GET', groupsOf(smart.id)))).toEqual([]);
  });

  it('at most 50 groups per collection: the 51st is 409 CARD_GROUP_LIMIT_REACHED', async () => {
    const c = await postCollection(server, team.apiKey, { name: 'Crowded', fields: [{ title: 'A', dataType: 'PLAIN_TEXT', columnName: 'a' }] });
    const { prisma } = server.app.services;
    const collection = await prisma.dataCollection.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: c.id } } });
    await prisma.dataCardGroup.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({ teamId: team.teamId, collectionId: collection.id, simplyId: dataCardGroupId.create(), name: `g${i}`, position: i, cards: [] })),
    });
    expect(expectOk(await call('GET', groupsOf(c.id)))).toHaveLength(50);
    expectError(await call('POST', groupsOf(c.id), { name: 'one more', cards: [] }), 409, 'CARD_GROUP_LIMIT_REACHED');
  });
});

describe('fields removed after a group was configured', () => {
  it('the group reports what it lost; a PUT of what it shows cleans it up', async () => {
    const c = await postCollection(server, team.apiKey, {
      name: 'Shrinking',
      fields: [
        { title: 'Keep', dataType: 'PLAIN_TEXT', columnName: 'keep' },
        { title: 'Drop', dataType: 'PLAIN_TEXT', columnName: 'drop_me' },
        { title: 'Link', dataType: 'MULTI_DATA_RECORD', columnName: 'link', config: { targetDataCollectionSimplyId: households.id } },
      ],
    });
    const x = byColumn(c);
    const g = expectOk(await call('POST', groupsOf(c.id), {
      name: 'Everything',
      cards: [
        { kind: 'FIELDS', dataFieldSimplyIds: [x.drop_me, x.keep] },
        { kind: 'TABLE', dataFieldSimplyId: x.link, columnFieldSimplyIds: [h.name] },
      ],
    }), 201);
    expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${x.drop_me}`));
    expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${x.link}`));
    const [after] = expectOk(await call('GET', groupsOf(c.id)));
    expect(after.cards[0]).toMatchObject({ dataFieldSimplyIds: [x.keep], problems: [{ code: 'FIELD_NOT_FOUND', dataFieldSimplyId: x.drop_me, message: expect.any(String) }] });
    expect(after.cards[1]).toMatchObject({ dataFieldSimplyId: x.link, targetDataCollectionSimplyId: null, problems: [{ code: 'RELATIONSHIP_NOT_FOUND', dataFieldSimplyId: x.link, message: expect.any(String) }] });
    // sending back what it shows: the removed relationship is refused by name, the rest is kept clean
    const error = expectError(await call('PUT', `${groupsOf(c.id)}/${g.id}`, { name: after.name, cards: [{ kind: 'FIELDS', dataFieldSimplyIds: after.cards[0].dataFieldSimplyIds }, { kind: 'TABLE', dataFieldSimplyId: x.link }] }), 400, 'VALIDATION_ERROR');
    expect(error.details?.map((e) => e.field)).toEqual(['cards.1.dataFieldSimplyId']);
    const clean = expectOk(await call('PUT', `${groupsOf(c.id)}/${g.id}`, { name: after.name, cards: [{ kind: 'FIELDS', dataFieldSimplyIds: after.cards[0].dataFieldSimplyIds }] }));
    expect(clean.cards).toEqual([expect.objectContaining({ dataFieldSimplyIds: [x.keep], problems: [] })]);
  });

  it('a target collection archived or dropped from the field is reported as TARGET_COLLECTION_NOT_FOUND; columns kept', async () => {
    const target = await postCollection(server, team.apiKey, { name: 'Targets', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', columnName: 't' }] });
    const c = await postCollection(server, team.apiKey, { name: 'Pointing', fields: [{ title: 'To', dataType: 'SINGLE_DATA_RECORD', columnName: 'to', config: { targetDataCollectionSimplyId: target.id } }] });
    expectOk(await call('POST', groupsOf(c.id), { name: 'g', cards: [{ kind: 'TABLE', dataFieldSimplyId: c.fields[0].id, columnFieldSimplyIds: [target.fields[0].id] }] }), 201);
    expectOk(await call('POST', `/v1/data-collections/${target.id}/archive`, { isArchived: true }));
    let [g] = expectOk(await call('GET', groupsOf(c.id)));
    expect(g.cards[0]).toMatchObject({ targetDataCollectionSimplyId: target.id, columnFieldSimplyIds: [target.fields[0].id], problems: [{ code: 'TARGET_COLLECTION_NOT_FOUND' }] });
    expectOk(await call('POST', `/v1/data-collections/${target.id}/archive`, { isArchived: false }));
    expectOk(await call('PATCH', `/v1/data-collections/${c.id}/fields/${c.fields[0].id}`, { config: {} }));
    [g] = expectOk(await call('GET', groupsOf(c.id)));
    expect(g.cards[0]).toMatchObject({ targetDataCollectionSimplyId: null, columnFieldSimplyIds: [target.fields[0].id], problems: [{ code: 'TARGET_COLLECTION_NOT_FOUND' }] });
  });
});

describe('the privileged tier', () => {
  const routes = (collection: string, group: string): [string, string, unknown][] => [
    ['GET', groupsOf(collection), undefined],
    ['POST', groupsOf(collection), { name: 'x', cards: [] }],
    ['PUT', `${groupsOf(collection)}/${group}`, { name: 'x', cards: [] }],
    ['DELETE', `${groupsOf(collection)}/${group}`, undefined],
  ];
  let group: string;

  beforeAll(async () => {
    group = expectOk(await call('POST', groupsOf(people.id), { name: 'Tier', cards: [] }), 201).id;
  });

  it('refuses session tokens, OAuth tokens, keys and members without TEAM_SETTINGS edit (403), and no credential (401)', async () => {
    const session = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read', 'records:read', 'records:write'] }), 201).token;
    const oauth = await oauthToken(server, team, 'records:read records:write schema:read');
    const readers = await createRole(server, team, { name: 'Readers', dataFullAccess: 'EDIT' });
    const viewKey = (await createApiKey(server, team, { name: 'settings view', teamRoleSimplyId: readers, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    const plainKey = (await createApiKey(server, team, { name: 'plain', teamRoleSimplyId: readers })).key;
    const member = await addMember(server, team, { teamRoleSimplyId: readers });
    for (const [method, path, body] of routes(people.id, group)) {
      for (const token of [session, oauth, viewKey, plainKey]) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await server.request(method, path, { token: member.token, teamId: team.teamSimplyId, body }), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED');
    }
    // refused before the body is read: a bad body is still a 403
    expectError(await call('POST', groupsOf(people.id), { bogus: true }, plainKey), 403, 'PERMISSION_DENIED');
    expect(expectOk(await call('GET', groupsOf(people.id))).find((g: any) => g.id === group)).toMatchObject({ name: 'Tier' });
  });

  it('a key with TEAM_SETTINGS edit and no data role administers; a signed-in team admin too', async () => {
    const none = await createRole(server, team, { name: 'No data', dataPermissions: [] });
    const settingsKey = (await createApiKey(server, team, { name: 'settings', teamRoleSimplyId: none, featurePermissions: ['TEAM_SETTINGS'] })).key;
    const made = expectOk(await call('POST', groupsOf(people.id), { name: 'By settings key', cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [f.email] }] }, settingsKey), 201);
    expect(expectOk(await call('GET', groupsOf(people.id), undefined, settingsKey)).map((g: any) => g.id)).toContain(made.id);
    const admin = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.userToken, teamId: team.teamSimplyId, body });
    expectOk(await admin('PUT', `${groupsOf(people.id)}/${made.id}`, { name: 'By the admin', cards: [] }));
    expectOk(await admin('DELETE', `${groupsOf(people.id)}/${made.id}`));
  });
});

describe('other teams and unknown ids', () => {
  it('another team’s or an unknown collection or group is 404 on every route; malformed ids 400', async () => {
    const mine = expectOk(await call('POST', groupsOf(people.id), { name: 'Mine', cards: [] }), 201).id;
    const body = { name: 'x', cards: [] };
    const cases: [string, string, unknown][] = [
      ['GET', groupsOf(foreign.id), undefined],
      ['POST', groupsOf(foreign.id), body],
      ['PUT', `${groupsOf(foreign.id)}/${foreignGroup}`, body],
      ['DELETE', `${groupsOf(foreign.id)}/${foreignGroup}`, undefined],
      // their group under my collection
      ['PUT', `${groupsOf(people.id)}/${foreignGroup}`, body],
      ['DELETE', `${groupsOf(people.id)}/${foreignGroup}`, undefined],
      // my group under another of my collections
      ['PUT', `${groupsOf(households.id)}/${mine}`, body],
      ['DELETE', `${groupsOf(households.id)}/${mine}`, undefined],
      ['GET', groupsOf('ZZZZ-ZZZZ-ZZZ2'), undefined],
      ['PUT', `${groupsOf(people.id)}/cgrp-ZZZZ-ZZZZ-ZZZ2`, body],
    ];
    for (const [method, path, b] of cases) expectError(await call(method, path, b), 404, 'NOT_FOUND', `${method} ${path}`);
    for (const [method, path, b] of [
      ['GET', groupsOf('12345'), undefined],
      ['POST', groupsOf('nope'), body],
      ['PUT', `${groupsOf(people.id)}/12345`, body],
      ['DELETE', `${groupsOf(people.id)}/view-ZZZZ-ZZZZ-ZZZ2`, undefined],
    ] as const) {
      expectError(await call(method, path, b), 400, 'VALIDATION_ERROR', `${method} ${path}`);
    }
    // theirs is untouched
    expect(expectOk(await call('GET', groupsOf(foreign.id), undefined, other.apiKey)).map((g: any) => g.id)).toEqual([foreignGroup]);
  });
});

describe('GraphQL', () => {
  it('serves the same operations with the same codes', async () => {
    const created = gqlData(
      await server.graphql(`mutation($c: String!, $input: JSON!) { createDataCardGroup(dataCollectionSimplyId: $c, input: $input) { id position cards { kind direction targetDataCollectionSimplyId } } }`, { c: people.id, input: overview() }, { token: team.apiKey }),
    ).createDataCardGroup;
    expect(created.cards.map((c: any) => c.direction)).toEqual([null, 'FORWARD', 'REVERSE']);
    const listed = gqlData(await server.graphql(`query($c: String!) { dataCollectionCardGroups(dataCollectionSimplyId: $c) { id } }`, { c: people.id }, { token: team.apiKey })).dataCollectionCardGroups;
    expect(listed.map((g: any) => g.id)).toContain(created.id);
    expectGqlError(
      await server.graphql(`mutation($c: String!, $g: String!, $input: JSON!) { replaceDataCardGroup(dataCollectionSimplyId: $c, dataCardGroupSimplyId: $g, input: $input) { id } }`, { c: people.id, g: created.id, input: { name: 'x', cards: [{ kind: 'TABLE', dataFieldSimplyId: f.email }] } }, { token: team.apiKey }),
      'VALIDATION_ERROR', 400,
    );
    expectGqlError(await server.graphql(`query($c: String!) { dataCollectionCardGroups(dataCollectionSimplyId: $c) { id } }`, { c: foreign.id }, { token: team.apiKey }), 'NOT_FOUND', 404);
    const session = expectOk(await call('POST', '/v1/session-tokens', {}), 201).token;
    expectGqlError(await server.graphql(`mutation($c: String!, $g: String!) { deleteDataCardGroup(dataCollectionSimplyId: $c, dataCardGroupSimplyId: $g) }`, { c: people.id, g: created.id }, { token: session }), 'PERMISSION_DENIED', 403);
    expect(gqlData(await server.graphql(`mutation($c: String!, $g: String!) { deleteDataCardGroup(dataCollectionSimplyId: $c, dataCardGroupSimplyId: $g) }`, { c: people.id, g: created.id }, { token: team.apiKey })).deleteDataCardGroup).toBe(true);
  });
});
