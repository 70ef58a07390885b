// Record changes are durable: every one is a DomainEvent row written in the same transaction as the
// change (record-changes.ts). After the LISTEN connection was lost, the event bus replays the rows it
// may have missed (src/app/pubsub/event-catch-up.ts); this is how a row becomes the subscription event.
import { registerReplayableTopic } from '../../app/pubsub/event-catch-up.ts';
import { RECORD_EVENT_TYPES, type RecordChangeEvent } from '../../kernel/index.ts';

const CHANGE_TYPES = new Map<string, RecordChangeEvent['changeType']>(Object.entries(RECORD_EVENT_TYPES).map(([changeType, eventType]) => [eventType, changeType as RecordChangeEvent['changeType']]));

interface RecordEventPayload {
  eventId: string;
  occurredAt: string;
  data: { dataRecordSimplyId: string; dataCollectionSimplyId: string; fields?: Record<string, unknown>; changedFieldSimplyIds?: string[] };
  actor?: { kind?: string; id?: string | null };
}

registerReplayableTopic({
  topic: 'dataRecordChanges',
  eventTypes: Object.values(RECORD_EVENT_TYPES),
  eventIdOf: (event) => (event as RecordChangeEvent).eventId,
  fromRow: (row) => {
    const changeType = CHANGE_TYPES.get(row.eventType);
    const p = row.payload as RecordEventPayload;
    if (!changeType || !p?.data?.dataCollectionSimplyId) return null;
    const event: RecordChangeEvent = {
      changeType,
      eventId: p.eventId,
      dataRecordSimplyId: p.data.dataRecordSimplyId,
      dataCollectionSimplyId: p.data.dataCollectionSimplyId,
      // UPDATED names its changed fields; CREATED changed those given a value; DELETED none
      changedFieldSimplyIds:
        changeType === 'UPDATED'
          ? (p.data.changedFieldSimplyIds ?? [])
          : changeType === 'CREATED'
            ? Object.entries(p.data.fields ?? {}).filter(([, v]) => v !== null).map(([k]) => k)
            : [],
      occurredAt: p.occurredAt,
      actor: { kind: p.actor?.kind ?? 'UNKNOWN', id: p.actor?.id ?? null },
    };
    return { id: `${row.teamSimplyId}:${event.dataCollectionSimplyId}`, event };
  },
});
