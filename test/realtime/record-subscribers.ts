// graphql-ws subscribers to dataRecordChanges for the realtime tests: each on its own socket,
// recording the changes, the GraphQL errors (RESYNC_REQUIRED among them) and the close code.
import { expect } from 'vitest';
import { type GraphQLErrorShape, serverGraphqlWsClient } from '../support/realtime.ts';
import type { TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';

export const RECORD_CHANGES = `subscription ($c: String!) { dataRecordChanges(dataCollectionSimplyId: $c) {
  changeType eventId dataRecordSimplyId dataCollectionSimplyId changedFieldSimplyIds record { id fields } } }`;

export interface Change {
  changeType: string;
  eventId: string;
  dataRecordSimplyId: string;
  dataCollectionSimplyId: string;
  changedFieldSimplyIds: string[];
  record: { id: string; fields: Record<string, unknown> } | null;
}

export function subscribeRecordChanges(server: TestServer, token: string, collection: string) {
  const state = { changes: [] as Change[], graphqlErrors: [] as GraphQLErrorShape[], closeCode: undefined as number | undefined, done: false };
  const client = serverGraphqlWsClient(server, {
    connectionParams: { authorization: `Bearer ${token}` },
    on: { closed: (event) => (state.closeCode ??= (event as { code?: number })?.code) },
  });
  client.subscribe<{ dataRecordChanges: Change }>(
    { query: RECORD_CHANGES, variables: { c: collection } },
    {
      next: (result) => {
        if (result.errors) state.graphqlErrors.push(...(result.errors as GraphQLErrorShape[]));
        if (result.data?.dataRecordChanges) state.changes.push(result.data.dataRecordChanges);
      },
      error: (error) => {
        if (Array.isArray(error)) state.graphqlErrors.push(...(error as GraphQLErrorShape[]));
        else if (error && typeof error === 'object' && 'code' in error) state.closeCode ??= (error as { code: number }).code;
        state.done = true;
      },
      complete: () => (state.done = true),
    },
  );
  return {
    state,
    has: (recordId: string, changeType = 'CREATED') => state.changes.some((c) => c.dataRecordSimplyId === recordId && c.changeType === changeType),
    close: () => client.dispose(),
  };
}

export type RecordSubscriber = ReturnType<typeof subscribeRecordChanges>;

/** After the database is back, every committed change must have reached every live subscriber within this. */
const CATCH_UP_BOUND_MS = 30_000;
const untilCaughtUp = untilWith({ timeoutMs: CATCH_UP_BOUND_MS, everyMs: 100 });

/**
 * Waits (up to CATCH_UP_BOUND_MS) until every subscriber has every change in `committed` (duplicates
 * allowed, misses not), then checks none was closed or sent an error other than RESYNC_REQUIRED.
 * `since` names the moment the bound counts from, for the failure message.
 */
export async function expectEveryChangeOnEverySubscriber(subs: readonly RecordSubscriber[], committed: readonly string[], since: { at: number; what: string }): Promise<void> {
  const missing = () => subs.reduce((n, s) => n + committed.filter((id) => !s.has(id)).length, 0);
  await untilCaughtUp('every committed change on every subscriber', () => missing() === 0).catch(() => {
    throw new Error(`${missing()} deliveries missing ${Date.now() - since.at} ms after ${since.what} (${committed.length} changes × ${subs.length} subscribers)`);
  });
  for (const s of subs) {
    expect(s.state.closeCode).toBeUndefined();
    expect(s.state.graphqlErrors.filter((e) => e.extensions?.code !== 'RESYNC_REQUIRED')).toEqual([]);
  }
}
