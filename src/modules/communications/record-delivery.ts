// The one writer of the communication history: every delivery the platform makes to a constituent
// (composer, automations, wizards, constituent authentication, conversations) is recorded here, on
// the connection that queues the send, so the row exists exactly when the send does. Content is
// masked before it is stored (masking.ts); later state changes come from the mail row the delivery
// points at (the `mail_state_propagate` trigger).
import type pg from 'pg';
import { deliveryId } from './communications.ids.ts';
import { maskCredentials } from './masking.ts';

export const DELIVERY_SOURCES = ['MESSAGE_COMPOSER', 'AUTOMATION', 'WIZARD', 'CONSTITUENT_AUTHENTICATION', 'CONVERSATION', 'SYSTEM'] as const;
export type DeliverySource = (typeof DELIVERY_SOURCES)[number];
// CHAT: an agent's message in a conversation's chat (the visitor's chat window shows it)
export const DELIVERY_CHANNELS = ['EMAIL', 'SMS', 'WHATSAPP', 'FACEBOOK', 'CHAT'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
export const DELIVERY_STATES = ['QUEUED', 'SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface SentAttachment {
  fileSimplyId: string;
  versionNumber: number;
  filename: string;
  contentType: string;
  sizeBytes: number;
}

export interface DeliveryDraft {
  teamId: string | bigint;
  /** the constituent's record (internal id) */
  dataRecordId: string | bigint;
  outgoingMessageId?: string | bigint | null;
  sourceType: DeliverySource;
  sourceSimplyId?: string | null;
  channelId: DeliveryChannel;
  /** the mail row whose state the delivery follows */
  mailMessageId?: string | null;
  /** QUEUED unless the send was refused up front (SUPPRESSED, FAILED) */
  state?: DeliveryState;
  destination: string;
  senderAddress?: string | null;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  attachments?: readonly SentAttachment[];
  /** reusable credentials inside the content (a code, a sign-in or unsubscribe link): masked before storage */
  secrets?: readonly string[];
}

const COLUMNS = [
  '"simplyId"', '"teamId"', '"dataRecordId"', '"outgoingMessageId"', '"sourceType"', '"sourceSimplyId"', '"channelId"', '"currentStateId"',
  'sensitivity', '"hasProtectedContent"', '"attachmentCount"', '"mailMessageId"', 'destination', '"senderAddress"', '"renderedSubject"',
  '"renderedText"', '"renderedHtml"', 'attachments',
] as const;
const TYPES = ['text', 'bigint', 'bigint', 'bigint', 'text', 'text', 'text', 'text', 'text', 'boolean', 'int', 'bigint', 'text', 'text', 'text', 'text', 'text', 'jsonb'];

function rowOf(draft: DeliveryDraft): unknown[] {
  const secrets = draft.secrets ?? [];
  const parts = [draft.subject, draft.text, draft.html].map((part) => (part == null ? null : maskCredentials(part, secrets)));
  const sensitive = parts.some((part) => part?.masked);
  const attachments = draft.attachments ?? [];
  return [
    deliveryId.create(),
    String(draft.teamId),
    String(draft.dataRecordId),
    draft.outgoingMessageId == null ? null : String(draft.outgoingMessageId),
    draft.sourceType,
    draft.sourceSimplyId ?? null,
    draft.channelId,
    draft.state ?? 'QUEUED',
    sensitive ? 'SENSITIVE' : 'STANDARD',
    parts.some((part) => part !== null) || attachments.length > 0,
    attachments.length,
    draft.mailMessageId ?? null,
    draft.destination,
    draft.senderAddress ?? null,
    parts[0]?.text ?? null,
    parts[1]?.text ?? null,
    parts[2]?.text ?? null,
    JSON.stringify(attachments),
  ];
}

/** Records deliveries (with their first lifecycle event) in one statement; answers their simplyIds in order. */
export async function recordDeliveries(db: pg.PoolClient, drafts: readonly DeliveryDraft[]): Promise<string[]> {
  if (drafts.length === 0) return [];
  const rows = drafts.map(rowOf);
  const columns = COLUMNS.map((_, i) => rows.map((row) => row[i]));
  const unnest = TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  await db.query(
    `WITH inserted AS (
       INSERT INTO "ConstituentMessageDelivery" (${COLUMNS.join(', ')})
       SELECT * FROM unnest(${unnest})
       RETURNING id, "teamId", "currentStateId"
     )
     INSERT INTO "ConstituentMessageDeliveryEvent" ("teamId", "deliveryId", "stateId") SELECT "teamId", id, "currentStateId" FROM inserted`,
    columns,
  );
  return rows.map((row) => row[0] as string);
}

export async function recordDelivery(db: pg.PoolClient, draft: DeliveryDraft): Promise<string> {
  const [simplyId] = await recordDeliveries(db, [draft]);
  return simplyId!;
}
