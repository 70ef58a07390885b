// A run's runtime events: numbered from 1 with no gaps (the number is taken from the run row in the
// transaction that stores the event, so an event that did not commit used no number), stored, and
// published with pg_notify in that same transaction, so every instance's subscribers get exactly the
// committed events. A subscriber that reconnects asks from the last number it saw: the stored events
// after it come first, then live ones, without duplicates.
import type { Services } from '../../app/context.ts';
import type { Tx } from '../../app/transaction.ts';
import type { AssistantRun } from '../../generated/prisma/client.ts';
import type { RunEventView } from './assistant-views.ts';

export type RunEventType =
  | 'RUN_STARTED'
  | 'STEP_STARTED'
  | 'TOOL_CALL_STARTED'
  | 'TOOL_CALL_FINISHED'
  | 'RUN_COMPLETED'
  | 'RUN_WAITING'
  | 'RUN_FAILED'
  | 'RUN_CANCELLED';

/** A published event: the run's event as the API answers it, dates as ISO text. */
export type PublishedRunEvent = Omit<RunEventView, 'createdAt'> & { runSimplyId: string; createdAt: string };

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** `<team simplyId>:<run simplyId>` → that run's runtime events */
    assistantRunEvents: [string, PublishedRunEvent];
  }
}

export const runTopicId = (teamSimplyId: string, runSimplyId: string) => `${teamSimplyId}:${runSimplyId}`;

/**
 * Stores the next event of `run` and publishes it once it commits: one statement numbers it (from
 * the run row), stores it and notifies, in `db`'s transaction or as a transaction of its own.
 * Payloads carry only what a member may see: tool names, counts, simplyIds, fixed summaries.
 */
export async function appendRunEvent(
  services: Services,
  db: Tx | Services['prisma'],
  run: Pick<AssistantRun, 'id' | 'teamId' | 'simplyId'>,
  teamSimplyId: string,
  eventType: RunEventType,
  payload: Record<string, unknown> = {},
): Promise<void> {
  const { channel, type } = services.events.address('assistantRunEvents', runTopicId(teamSimplyId, run.simplyId));
  const body = JSON.stringify(payload);
  // the published event is the read's PublishedRunEvent: createdAt as JavaScript's ISO text
  // executed, not queried: the statement's only column is pg_notify's void, which no client reads
  await db.$executeRaw`
    WITH next AS (
      UPDATE "AssistantRun" SET "nextEventSequence" = "nextEventSequence" + 1
       WHERE "teamId" = ${run.teamId} AND id = ${run.id}
      RETURNING "nextEventSequence" - 1 AS sequence
    ), stored AS (
      INSERT INTO "AssistantRunEvent" ("teamId", "runId", sequence, "eventType", payload, "createdAt")
      SELECT ${run.teamId}, ${run.id}, sequence, ${eventType}, ${body}::jsonb, now() FROM next
      RETURNING sequence, "createdAt"
    )
    SELECT pg_notify(${channel}, json_build_object('type', ${type}::text, 'detail', json_build_object(
      'runSimplyId', ${run.simplyId}::text, 'sequence', sequence, 'eventType', ${eventType}::text, 'payload', ${body}::jsonb,
      'createdAt', to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text)
      FROM stored`;
}

/** Stored events of a run after `afterSequence`, in order. */
export async function storedRunEvents(services: Services, teamId: bigint, runId: bigint, afterSequence = 0): Promise<PublishedRunEvent[]> {
  const rows = await services.prisma.assistantRunEvent.findMany({ where: { teamId, runId, sequence: { gt: afterSequence } }, orderBy: { sequence: 'asc' } });
  return rows.map((e) => ({ runSimplyId: '', sequence: e.sequence, eventType: e.eventType, payload: e.payload, createdAt: e.createdAt.toISOString() }));
}

const TERMINAL_EVENTS = new Set(['RUN_COMPLETED', 'RUN_WAITING', 'RUN_FAILED', 'RUN_CANCELLED']);

/**
 * Stored then live events after `afterSequence`; ends after the run's terminal event. `live` must be
 * subscribed before this is called, so nothing committed between the read and the subscription is lost.
 */
export async function* eventsFrom(
  stored: () => Promise<PublishedRunEvent[]>,
  live: AsyncIterable<PublishedRunEvent>,
  runSimplyId: string,
  afterSequence: number,
): AsyncGenerator<PublishedRunEvent> {
  let last = afterSequence;
  for (const event of await stored()) {
    last = event.sequence;
    yield { ...event, runSimplyId };
    if (TERMINAL_EVENTS.has(event.eventType)) return;
  }
  for await (const event of live) {
    if (event.sequence <= last) continue;
    // a live event beyond the next number: the ones between committed while we were reading
    if (event.sequence > last + 1) {
      for (const missed of await stored()) {
        if (missed.sequence <= last || missed.sequence >= event.sequence) continue;
        last = missed.sequence;
        yield { ...missed, runSimplyId };
      }
    }
    last = event.sequence;
    yield event;
    if (TERMINAL_EVENTS.has(event.eventType)) return;
  }
}
