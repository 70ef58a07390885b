// A member following runs over graphql-ws, as the web client does: one socket (TLS checked against
// the server's certificate, no retries), one teamAgentRunEvents subscription per run, each event
// stamped (stats.ts wallClockMs) as the client library hands it over. The socket is opened before
// the first run, so its handshake is never part of an event's latency.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { PlatformProcess } from '../events/platform-process.ts';
import { wallClockMs } from '../events/stats.ts';
import type { BootstrappedTeam } from '../section-bed.ts';

const QUERY = 'subscription($id: String!, $after: Int) { teamAgentRunEvents(runSimplyId: $id, afterSequence: $after) { sequence eventType createdAt } }';

export interface ReceivedRunEvent {
  sequence: number;
  eventType: string;
  /** when the event was stored (its createdAt), wall-clock ms */
  storedAt: number;
  /** when it reached this subscriber, wall-clock ms */
  receivedAt: number;
}

export interface FollowedRun {
  /** wall-clock ms just before the subscription was sent */
  subscribedAt: number;
  events: ReceivedRunEvent[];
}

export interface RunEventSubscriber {
  /** Every event of the run from the first, until the subscription ends after its terminal event. */
  follow(runSimplyId: string, timeoutMs: number): Promise<FollowedRun>;
  close(): Promise<void>;
}

export async function openRunEventSubscriber(platform: PlatformProcess, boot: BootstrappedTeam): Promise<RunEventSubscriber> {
  const ca = platform.ca;
  let connected!: () => void;
  let refused!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    connected = resolve;
    refused = reject;
  });
  const client: Client = createClient({
    url: `${platform.baseUrl.replace(/^https:/, 'wss:')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { ca, perMessageDeflate: false });
      }
    },
    lazy: false,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${boot.userToken}`, 'X-Team-Id': boot.teamSimplyId },
    on: {
      connected: () => connected(),
      closed: (event) => refused(new Error(`the graphql-ws socket closed: ${(event as { code?: number })?.code ?? ''} ${(event as { reason?: string })?.reason ?? ''}`)),
      error: (error) => refused(error instanceof Error ? error : new Error(String(error))),
    },
  });
  await ready;

  const follow = (runSimplyId: string, timeoutMs: number) =>
    new Promise<FollowedRun>((resolve, reject) => {
      const events: ReceivedRunEvent[] = [];
      const subscribedAt = wallClockMs();
      let stop = () => {};
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`run ${runSimplyId}: no terminal event within ${timeoutMs} ms (${events.length} events received)`));
      }, timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(JSON.stringify(error).slice(0, 500)));
      };
      stop = client.subscribe<{ teamAgentRunEvents: { sequence: number; eventType: string; createdAt: string } }>(
        { query: QUERY, variables: { id: runSimplyId, after: 0 } },
        {
          next: (result) => {
            const receivedAt = wallClockMs();
            const event = result.data?.teamAgentRunEvents;
            if (result.errors || !event) return fail(new Error(`run ${runSimplyId}: ${JSON.stringify(result.errors ?? result).slice(0, 500)}`));
            events.push({ sequence: event.sequence, eventType: event.eventType, storedAt: Date.parse(event.createdAt), receivedAt });
          },
          error: fail,
          complete: () => {
            clearTimeout(timer);
            resolve({ subscribedAt, events });
          },
        },
      );
    });

  return {
    follow,
    close: async () => {
      await client.dispose();
    },
  };
}
