// graphql-ws subscribers to dataRecordChanges for the realtime tests: each on its own socket,
// recording the changes, the GraphQL errors (RESYNC_REQUIRED among them) and the close code.
import type { GraphQLErrorShape } from '../support/realtime.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import type { TestServer } from '../support/server.ts';

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
