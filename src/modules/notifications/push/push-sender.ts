// The one interface every push provider's sender implements, and what it reports back. The
// PUSH_SEND job decides what an outcome does to the delivery and the token (push.jobs.ts).

/** SENT: the provider accepted it. TOKEN_GONE: the provider says the address no longer exists.
 * RETRY: a transient failure (429, 5xx, network). FAILED: anything else (retrying would not help). */
export type PushOutcome = 'SENT' | 'TOKEN_GONE' | 'RETRY' | 'FAILED';

export interface PushResult {
  outcome: PushOutcome;
  /** what the provider answered (status, reason), or why nothing was sent; stored as lastError when not SENT */
  detail: string;
}

export interface PushMessage {
  title: string | null;
  body: string | null;
  /** travels with the message to the app; each provider has its own place for it */
  data: {
    notificationSimplyId: string;
    notificationType: string;
    actionUrl: string | null;
    teamSimplyId: string;
  };
}

export interface PushSender {
  /** Never throws: every failure is an outcome. */
  send(token: string, message: PushMessage): Promise<PushResult>;
}

/** The status classes every provider shares; providers refine 400/403/404/410 themselves. */
export function transientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A thrown error as one line, for lastError and logs. */
export function describeError(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = e?.cause?.message && e.cause.message !== e.message ? ` (${e.cause.code ? `${e.cause.code}: ` : ''}${e.cause.message})` : '';
  return `${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(error)}${inner}`.slice(0, 1000);
}
