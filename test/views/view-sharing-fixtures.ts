// What the sharing suites (public access tokens, the calendar feed, the embedded page) share: a
// server with two teams, an "Events" collection with text, date, date-time and number fields, and
// shorthands for views that can be shared (published, with display and calendar date links).
import { createHash } from 'node:crypto';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import { restCaller, type RestCall } from '../support/rest-caller.ts';
import type { TestServer } from '../support/server.ts';

export interface SharingBed {
  server: TestServer;
  team: TeamFixture;
  other: TeamFixture;
  /** a published LIST view of the other team */
  otherView: string;
  events: CollectionFixture;
  /** as the team's API key */
  call: RestCall;
}

export const EVENT_FIELDS = {
  title: REQUIRED_TEXT,
  starts: 'DATE_TIME',
  ends: 'DATE_TIME',
  day: 'DATE',
  until: 'DATE',
  seats: 'NUMBER',
  status: 'PLAIN_TEXT',
  secret: 'PLAIN_TEXT',
} as const;

export async function startSharingBed(): Promise<SharingBed> {
  const { server, team, other, otherCollection } = await startServerWithTwoTeams();
  const call = restCaller(() => server, () => team.apiKey);
  const events = await createCollection(server, team, { name: 'Events', formula: '{title}', fields: { ...EVENT_FIELDS } });
  const otherView = expectOk(
    await call('POST', '/v1/data-views', { dataCollectionSimplyId: otherCollection.id, name: 'Not yours', enumDataViewTypeId: 'LIST', isPublished: true, config: { columns: [otherCollection.fields.label] } }, other.apiKey),
    201,
  ).id;
  return { server, team, other, otherView, events, call };
}

/** A published view of `events` showing `columns` (field column names). */
export async function publishedView(bed: SharingBed, options: { type?: string; name?: string; columns: string[]; filters?: unknown[]; sortOrder?: unknown[] }): Promise<string> {
  const f = bed.events.fields;
  const view = expectOk(
    await bed.call('POST', '/v1/data-views', {
      dataCollectionSimplyId: bed.events.id,
      name: options.name ?? 'Shared view',
      enumDataViewTypeId: options.type ?? 'TABLE',
      config: { columns: options.columns.map((c) => f[c]), filters: options.filters ?? [], sortOrder: options.sortOrder ?? [] },
    }),
    201,
  ).id as string;
  if ((options.type ?? 'TABLE') === 'CALENDAR') {
    expectOk(await bed.call('POST', `/v1/data-views/${view}/calendar-date-info-field-links`, { dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.ends, label: 'Session' }), 201);
  }
  await publish(bed, view);
  return view;
}

/** Publishes the view through its admin detail (the detail as it is, isPublished true). */
export async function publish(bed: SharingBed, view: string, isPublished = true): Promise<void> {
  const { name, description, internalName, enumDataViewTypeId, config } = expectOk(await bed.call('GET', `/v1/data-views/${view}/admin-detail`));
  expectOk(await bed.call('PUT', `/v1/data-views/${view}/admin-detail`, { name, description, internalName, enumDataViewTypeId, isPublished, config }));
}

/** Creates a token and answers the create response's data. */
export async function createToken(bed: SharingBed, view: string, tokenType: 'EMBED' | 'ICS_FEED', body?: unknown): Promise<any> {
  return expectOk(await bed.call('POST', `/v1/data-views/${view}/public-access-tokens/${tokenType}`, body), 201);
}

/** Creates an Events record from column name → value. */
export async function createEvent(bed: SharingBed, values: Record<string, unknown>): Promise<{ id: string; updatedAt: string }> {
  const fields = Object.fromEntries(Object.entries(values).map(([column, value]) => [bed.events.fields[column]!, value]));
  return expectOk(await bed.call('POST', '/v1/data-records', { dataCollectionSimplyId: bed.events.id, fields }), 201);
}

/** The path of a URL the platform answered (tests call their own server). */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
