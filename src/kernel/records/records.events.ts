// The realtime topic of record changes (graphql-ws `dataRecordChanges`, published by record-changes.ts).

/** A record of a collection was created, updated or deleted (record-changes.ts). */
export interface RecordChangeEvent {
  changeType: 'CREATED' | 'UPDATED' | 'DELETED';
  eventId: string;
  dataRecordSimplyId: string;
  dataCollectionSimplyId: string;
  changedFieldSimplyIds: string[];
  occurredAt: string;
  actor: { kind: string; id: string | null };
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** `<team simplyId>:<collection simplyId>` → record changes in that collection */
    dataRecordChanges: [string, RecordChangeEvent];
  }
}
