// No N+1 on records: a page of records with its collection (fields, record count), its field
// definitions and two levels of referenced records (MULTI_DATA_RECORD → MULTI_DATA_RECORD) costs
// the same, small number of SQL statements whether the page holds 2 records or 25.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { gqlData } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { countSql, type SqlCounter } from '../support/sql-counter.ts';

const SMALL = 2;
const LARGE = 25;
/** what a whole page costs today: the page with its total (an unfiltered total is read from the
 *  record counters by the page statement), the People record count, the orgs (one batch), the
 *  Orgs record count, the places (one batch) */
const AT_MOST = 5;
/** a search that fills its page from the first memberships also counts all its matches */
const AT_MOST_SEARCH = AT_MOST + 1;

const NESTED = `
  id name fields
  collection { name fields { dataFieldSimplyId } recordCount }
  fieldDefinitions { dataFieldSimplyId dataType }
  referencedRecords(dataFieldSimplyId: $orgsField) {
    name
    collection { name recordCount }
    referencedRecords(dataFieldSimplyId: $placesField) { name collection { name } }
  }`;

const LIST = `query ($c: String!, $limit: Int, $orgsField: String!, $placesField: String!) {
  dataRecords(dataCollectionSimplyId: $c, limit: $limit, sort: "calculatedName") { nodes { ${NESTED} } pagination { total } } }`;
const CONNECTION = `query ($c: String!, $limit: Int, $orgsField: String!, $placesField: String!) {
  dataRecords(dataCollectionSimplyId: $c, limit: $limit, sort: "calculatedName") { edges { cursor node { ${NESTED} } } pageInfo { endCursor } } }`;
const SEARCH = `query ($c: String!, $limit: Int, $orgsField: String!, $placesField: String!) {
  searchDataRecords(input: { dataCollectionSimplyId: $c, limit: $limit, sort: "calculatedName", query: "person",
    filters: [{ field: "calculatedName", operator: "startsWith", value: "person" }] }) { nodes { ${NESTED} } totalCount } }`;

describe('records: SQL statements per request do not grow with the page size', () => {
  let server: TestServer;
  let team: TeamFixture;
  let sql: SqlCounter;
  let people: CollectionFixture;
  let orgs: CollectionFixture;
  let places: CollectionFixture;

  async function batchCreate(collection: CollectionFixture, records: Record<string, unknown>[]): Promise<string[]> {
    const result = gqlData(
      await server.graphql(
        `mutation ($c: String!, $records: [JSON!]!) { batchCreateDataRecords(dataCollectionSimplyId: $c, records: $records) { failed results { record { id } error { message } } } }`,
        { c: collection.id, records: records.map((fields) => ({ fields })) },
        { token: team.apiKey },
      ),
    ).batchCreateDataRecords;
    expect(result.failed, JSON.stringify(result.results.filter((r: any) => r.error))).toBe(0);
    return result.results.map((r: any) => r.record.id);
  }

  beforeAll(async () => {
    ({ server, team } = await startServerWithTeam());
    places = await createLabelCollection(server, team, 'Places', '{label}');
    orgs = await createCollection(server, team, {
      name: 'Orgs',
      formula: '{label}',
      fields: {
        label: 'PLAIN_TEXT',
        places: { dataType: 'MULTI_DATA_RECORD', config: { targetDataCollectionSimplyId: places.id } },
      },
    });
    people = await createCollection(server, team, {
      name: 'People',
      formula: '{label}',
      fields: {
        label: 'PLAIN_TEXT',
        age: 'NUMBER',
        orgs: { dataType: 'MULTI_DATA_RECORD', config: { targetDataCollectionSimplyId: orgs.id } },
      },
    });
    // every person points at 3 organisations of their own, every organisation at 2 places of its own:
    // a bigger page means more distinct referenced records at both levels
    const placeIds: string[] = [];
    for (let chunk = 0; chunk < LARGE * 6; chunk += 50) {
      placeIds.push(...(await batchCreate(places, Array.from({ length: 50 }, (_, j) => ({ [places.fields.label!]: `place ${chunk + j}` })))));
    }
    const orgIds: string[] = [];
    for (let chunk = 0; chunk < LARGE * 3; chunk += 25) {
      orgIds.push(
        ...(await batchCreate(
          orgs,
          Array.from({ length: 25 }, (_, j) => {
            const i = chunk + j;
            return { [orgs.fields.label!]: `org ${i}`, [orgs.fields.places!]: [placeIds[2 * i]!, placeIds[2 * i + 1]!] };
          }),
        )),
      );
    }
    await batchCreate(
      people,
      Array.from({ length: LARGE }, (_, i) => ({
        [people.fields.label!]: `person ${String(i).padStart(2, '0')}`,
        [people.fields.age!]: i,
        [people.fields.orgs!]: [orgIds[3 * i]!, orgIds[3 * i + 1]!, orgIds[3 * i + 2]!],
      })),
    );
    sql = countSql(server.app.services.pool);
  });
  afterAll(() => server?.close());

  const variables = (limit: number) => ({ c: people.id, limit, orgsField: people.fields.orgs, placesField: orgs.fields.places });

  /**
   * Statements of one request whose credential and team schema came from the caches (the first
   * request of a kind warms them; another instance's invalidation can force a reload, hence the repeat).
   */
  async function statementsOf(query: string, limit: number): Promise<{ statements: string[]; data: any }> {
    const { authenticator } = server.app.services;
    await server.graphql(query, variables(limit), { token: team.apiKey }); // warm-up
    for (let attempt = 0; attempt < 10; attempt++) {
      const loads = authenticator.loads;
      let data: any;
      const statements = await sql.measure(async () => {
        data = gqlData(await server.graphql(query, variables(limit), { token: team.apiKey }));
      });
      if (authenticator.loads === loads) return { statements, data };
    }
    throw new Error('the credential never stayed cached for a whole request');
  }

  function nodesOf(data: any): any[] {
    const page = data.dataRecords ?? data.searchDataRecords;
    return page.nodes ?? page.edges.map((e: any) => e.node);
  }

  it.each([
    ['dataRecords { nodes }', LIST, AT_MOST],
    ['dataRecords { edges { node } }', CONNECTION, AT_MOST],
    ['searchDataRecords { nodes }', SEARCH, AT_MOST_SEARCH],
  ])('%s with collection, fieldDefinitions and two levels of referencedRecords', async (_label, query, atMost) => {
    const small = await statementsOf(query, SMALL);
    const large = await statementsOf(query, LARGE);

    // the pages are really 2 and 25 records, with 3 orgs each and 2 places per org
    for (const [result, size] of [[small, SMALL], [large, LARGE]] as const) {
      const nodes = nodesOf(result.data);
      expect(nodes).toHaveLength(size);
      nodes.forEach((node: any, i: number) => {
        expect(node.name).toBe(`person ${String(i).padStart(2, '0')}`);
        expect(node.collection).toEqual({ name: 'People', fields: [people.fields.label, people.fields.age, people.fields.orgs].map((id) => ({ dataFieldSimplyId: id })), recordCount: LARGE });
        expect(node.fieldDefinitions.map((d: any) => d.dataType)).toEqual(['PLAIN_TEXT', 'NUMBER', 'MULTI_DATA_RECORD']);
        expect(node.referencedRecords.map((r: any) => r.name)).toEqual([`org ${3 * i}`, `org ${3 * i + 1}`, `org ${3 * i + 2}`]);
        for (const [k, org] of (node.referencedRecords as any[]).entries()) {
          const o = 3 * i + k;
          expect(org.collection).toEqual({ name: 'Orgs', recordCount: LARGE * 3 });
          expect(org.referencedRecords).toEqual([
            { name: `place ${2 * o}`, collection: { name: 'Places' } },
            { name: `place ${2 * o + 1}`, collection: { name: 'Places' } },
          ]);
        }
      });
    }

    const detail = `${SMALL} records:\n${small.statements.join('\n')}\n\n${LARGE} records:\n${large.statements.join('\n')}`;
    expect(large.statements.length, detail).toBe(small.statements.length);
    expect(large.statements.length, detail).toBeLessThanOrEqual(atMost);
    expect(large.statements.length).toBeGreaterThan(0);
  });

  it('a referencedRecords field that is not a record reference, or is unknown, costs nothing and answers []', async () => {
    const query = `query ($c: String!, $limit: Int, $f: String!) { dataRecords(dataCollectionSimplyId: $c, limit: $limit) { nodes { referencedRecords(dataFieldSimplyId: $f) { id } } } }`;
    for (const f of [people.fields.label, 'fld-ZZZZ-ZZZZ-ZZZZ']) {
      await server.graphql(query, { c: people.id, limit: LARGE, f }, { token: team.apiKey });
      const statements = await sql.measure(async () => {
        const data = gqlData(await server.graphql(query, { c: people.id, limit: LARGE, f }, { token: team.apiKey }));
        expect(data.dataRecords.nodes.every((n: any) => n.referencedRecords.length === 0)).toBe(true);
      });
      const plain = await sql.measure(() => server.graphql(`query ($c: String!) { dataRecords(dataCollectionSimplyId: $c, limit: ${LARGE}) { nodes { id } } }`, { c: people.id }, { token: team.apiKey }));
      expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(plain.length);
    }
  });
});
