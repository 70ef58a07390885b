// Sending (docs/api/outgoing-messages.md "Sending"). A message entering SENDING gets a `resolve`
// job (in the transaction of the move). Resolving is one transaction: it inserts every recipient
// row (INSERT … SELECT, unique per message and record, so a repeated job adds nobody), counts
// them and queues the batch jobs, spaced so that all sends together hand MESSAGE_SEND_RATE
// recipients per second to the mail transport. A batch job locks up to a second's worth of PENDING rows
// (FOR UPDATE SKIP LOCKED), renders each recipient's copy, and in the same transaction enqueues
// the mail, records the communication history and marks the row QUEUED with its mail: a crash
// rolls all of that back and the job's retry takes the rows again, so nobody is lost or doubled.
// When no PENDING row is left the message becomes SENT (or ERROR_SENDING when nobody could be
// handed over). The every-minute tick starts due SCHEDULED messages and repairs sends whose jobs
// were lost (pg-boss gave up on them).
import { onConnection } from '../../app/jobs.ts';
import type pg from 'pg';
import type { OutgoingMessage } from '../../generated/prisma/client.ts';
import type { Services } from '../../app/context.ts';
import { inTransaction } from '../../app/transaction.ts';
import { findRecordsById } from '../../kernel/index.ts';
import { recordDeliveries, type DeliveryDraft } from '../communications/index.ts';
import { UNSUBSCRIBE_URL_SLOT } from '../mail/index.ts';
import { channelAvailable } from './channel-providers.ts';
import { renderContent } from './message-content.ts';
import { senderForMessage } from './message-sender.ts';
import { compileSelection, storedSelectionOf } from './recipient-selection.ts';
import { insertRecipients } from './recipients.sql.ts';

export const RESOLVE_RECIPIENTS = 'outgoing-messages.resolve';
export const SEND_BATCH = 'outgoing-messages.send-batch';
export const START_DUE = 'outgoing-messages.start-due';
export const SEND_TICK = 'outgoing-messages.tick';

/** the most recipients one batch job hands over: a few statements carry them all (mail, jobs, history) */
const MAX_BATCH_SIZE = 200;

/** Recipients per batch job: a second's worth at the configured rate, so one job never exceeds it. */
export const batchSizeFor = (services: Services): number => Math.min(MAX_BATCH_SIZE, services.config.MESSAGE_SEND_RATE);
export const RESOLVE_RETRIES = 5;
export const BATCH_RETRIES = 10;
/** a SENDING message whose jobs are all gone this long after it started is repaired by the tick */
const REPAIR_AFTER_SECONDS = 120;
/**
 * The one lock under which batch start times are handed out, so two sends starting together
 * share the rate instead of each taking all of it. A single 64-bit key: PostgreSQL keeps that key
 * space apart from the two-key locks of src/db/advisory-locks.ts, so it can never meet them.
 */
const SEND_SLOTS_LOCK = 7_302_900_001n;

export interface MessageJob {
  teamId: string;
  outgoingMessageId: string;
}


const jobOf = (teamId: bigint | string, id: bigint | string): MessageJob => ({ teamId: String(teamId), outgoingMessageId: String(id) });

async function failSend(db: pg.PoolClient | pg.Pool, teamId: bigint, id: bigint, reason: string): Promise<void> {
  await db.query(
    `UPDATE "OutgoingMessage" SET status = 'ERROR_SENDING', "errorMessage" = $3, "updatedAt" = now() WHERE "teamId" = $1 AND id = $2 AND status = 'SENDING'`,
    [teamId, id, reason.slice(0, 1000)],
  );
}

/**
 * Queues `count` batch jobs of a message at the next free start times. Start times are whole
 * seconds apart, each second holding MESSAGE_SEND_RATE / batchSizeFor batches over every send:
 * workers drain whatever is due at once, and a start only milliseconds ahead would leave them
 * waiting for the queue's next poll (seconds) instead.
 */
export async function queueBatches(services: Services, db: pg.PoolClient, job: MessageJob, count: number): Promise<void> {
  if (count <= 0) return;
  const perSecond = Math.max(1, Math.floor(services.config.MESSAGE_SEND_RATE / batchSizeFor(services)));
  await db.query('SELECT pg_advisory_xact_lock($1::bigint)', [SEND_SLOTS_LOCK]);
  // the database's clock, which pg-boss compares start times with; the last second already handed
  // out, and how many batches it holds
  const { rows } = await db.query<{ now: number; last: number | null; used: string }>(
    `WITH waiting AS (SELECT start_after FROM pgboss.job WHERE name = $1 AND state < 'active'),
          last AS (SELECT max(start_after) AS at FROM waiting)
     SELECT (extract(epoch FROM now()) * 1000)::float8 AS now, (extract(epoch FROM last.at) * 1000)::float8 AS last,
            (SELECT count(*) FROM waiting WHERE start_after = last.at) AS used
       FROM last`,
    [SEND_BATCH],
  );
  const { now, last } = rows[0]!;
  const ahead = last !== null && Number(last) > Number(now);
  const base = ahead ? Number(last) : Number(now);
  const used = ahead ? Number(rows[0]!.used) : 0;
  const jobs = Array.from({ length: count }, (_, i) => ({
    data: job,
    startAfter: new Date(base + Math.floor((used + i) / perSecond) * 1000),
    retryLimit: BATCH_RETRIES,
    retryDelay: 5,
    retryBackoff: true,
  }));
  await services.jobs.boss.insert(SEND_BATCH, jobs, { db: onConnection(db) });
}

/** Jobs (resolve) for messages that just entered SENDING, on the caller's connection. */
export async function queueResolve(services: Services, db: pg.PoolClient, messages: readonly MessageJob[]): Promise<void> {
  if (messages.length === 0) return;
  await services.jobs.boss.insert(RESOLVE_RECIPIENTS, messages.map((data) => ({ data, retryLimit: RESOLVE_RETRIES, retryDelay: 5, retryBackoff: true })), { db: onConnection(db) });
}

type MessageRow = { id: string; status: string; senderId: string | null; deliveryMethod: string; dataCollectionId: string | null; dataViewId: string | null; recipientFilter: unknown; emailFieldId: string | null };
const big = (v: string | null) => (v === null ? null : BigInt(v));

/** The resolve job: recipients into rows, once, and their batches queued (see the top of the file). */
export async function resolveRecipients(services: Services, job: MessageJob): Promise<void> {
  const teamId = BigInt(job.teamId);
  const id = BigInt(job.outgoingMessageId);
  await inTransaction(services.pool, async (db) => {
    const { rows } = await db.query<MessageRow>(
      `SELECT id::text, status, "senderId"::text, "deliveryMethod", "dataCollectionId"::text, "dataViewId"::text, "recipientFilter", "emailFieldId"::text
         FROM "OutgoingMessage" WHERE "teamId" = $1 AND id = $2 FOR UPDATE`,
      [teamId, id],
    );
    const row = rows[0];
    if (!row || row.status !== 'SENDING') return;
    const resolved = await db.query(`SELECT 1 FROM "OutgoingMessageRecipient" WHERE "teamId" = $1 AND "outgoingMessageId" = $2 LIMIT 1`, [teamId, id]);
    // resolved already (this job ran before): its batches were queued in that same transaction
    if (resolved.rows.length > 0) return;
    if (row.deliveryMethod !== 'EMAIL' || !channelAvailable(row.deliveryMethod)) return failSend(db, teamId, id, `No ${row.deliveryMethod} provider is configured`);
    const sender = await senderForMessage(services, teamId, big(row.senderId));
    if (!sender.ok) return failSend(db, teamId, id, sender.message);
    const compiled = await compileSelection(services, db, teamId, storedSelectionOf({
      dataCollectionId: big(row.dataCollectionId),
      dataViewId: big(row.dataViewId),
      recipientFilter: row.recipientFilter,
      emailFieldId: big(row.emailFieldId),
    }));
    if (!compiled.ok) return failSend(db, teamId, id, compiled.problem.message);
    if (!compiled.selection.emailField) return failSend(db, teamId, id, 'No email field is chosen for the recipients');
    const { pending, suppressed } = await insertRecipients(db, teamId, id, compiled.selection);
    await db.query(`UPDATE "OutgoingMessage" SET "totalRecipients" = $3, "updatedAt" = now() WHERE "teamId" = $1 AND id = $2`, [teamId, id, pending + suppressed]);
    if (pending + suppressed === 0) return failSend(db, teamId, id, 'No recipient: no matching record has an email address');
    if (pending === 0) return failSend(db, teamId, id, `Every recipient (${suppressed}) is on the team's suppression list`);
    await queueBatches(services, db, jobOf(teamId, id), Math.ceil(pending / batchSizeFor(services)));
  });
}

/** After the resolve job's last retry: the message cannot be sent. */
export async function resolveGaveUp(services: Services, job: MessageJob, error: unknown): Promise<void> {
  services.logger.error({ err: error, outgoingMessageId: job.outgoingMessageId }, 'outgoing message recipients could not be resolved');
  await failSend(services.pool, BigInt(job.teamId), BigInt(job.outgoingMessageId), 'The recipients could not be worked out (an internal error; the message was not sent)');
}

interface LockedRecipient {
  id: string;
  address: string;
  dataRecordId: string;
  suppressed: boolean;
}

interface PendingRow extends LockedRecipient {
  simplyId: string | null;
  calculatedName: string | null;
  values: Record<string, unknown> | null;
  gone: boolean;
}

interface Outcome {
  id: string;
  state: 'QUEUED' | 'FAILED' | 'SUPPRESSED';
  mailMessageId: string | null;
  error: string | null;
}

/** The locked recipients with their records, read in the batch's transaction; a recipient whose record was deleted since is `gone`. */
async function withRecords(db: pg.PoolClient, teamId: bigint, locked: readonly LockedRecipient[]): Promise<PendingRow[]> {
  const records = new Map((await findRecordsById(db, teamId, locked.map((r) => BigInt(r.dataRecordId)))).map((r) => [String(r.id), r]));
  return locked.map((recipient) => {
    const record = records.get(recipient.dataRecordId);
    return { ...recipient, simplyId: record?.simplyId ?? null, calculatedName: record?.calculatedName ?? null, values: record?.values ?? null, gone: !record || record.deletedAt !== null };
  });
}

/** One batch job: up to batchSizeFor pending recipients handed to the mail transport (see the top of the file). */
export async function sendBatch(services: Services, job: MessageJob): Promise<void> {
  const teamId = BigInt(job.teamId);
  const id = BigInt(job.outgoingMessageId);
  const message = await services.prisma.outgoingMessage.findFirst({ where: { teamId, id } });
  if (!message || message.status !== 'SENDING') return;
  const schema = await services.schemas.get(teamId);
  const collection = message.dataCollectionId === null ? undefined : schema.collectionsById.get(message.dataCollectionId);
  const fields = collection ? schema.fieldsOf(collection) : [];
  const sender = await senderForMessage(services, teamId, message.senderId);
  await inTransaction(services.pool, async (db) => {
    const { rows: locked } = await db.query<LockedRecipient>(
      `SELECT rcp.id::text, rcp.address, rcp."dataRecordId"::text,
              EXISTS (SELECT 1 FROM "MailSuppression" s WHERE s."teamId" = rcp."teamId" AND s.address = lower(rcp.address)) AS suppressed
         FROM "OutgoingMessageRecipient" rcp
        WHERE rcp."teamId" = $1 AND rcp."outgoingMessageId" = $2 AND rcp.state = 'PENDING'
        ORDER BY rcp.id LIMIT $3 FOR UPDATE OF rcp SKIP LOCKED`,
      [teamId, id, batchSizeFor(services)],
    );
    if (locked.length === 0) return;
    const rows = await withRecords(db, teamId, locked);
    const outcomes: Outcome[] = [];
    // the recipients to mail, with their rendered copies, handed over together below
    const mailed: { row: PendingRow; content: ReturnType<typeof renderContent> }[] = [];
    for (const row of rows) {
      const fail = (error: string) => outcomes.push({ id: row.id, state: 'FAILED', mailMessageId: null, error });
      if (row.gone) fail('The record was deleted before the message reached it');
      else if (row.suppressed) outcomes.push({ id: row.id, state: 'SUPPRESSED', mailMessageId: null, error: null });
      else if (!sender.ok) fail(sender.message);
      else mailed.push({ row, content: renderContent(message, fields, { simplyId: row.simplyId!, calculatedName: row.calculatedName, values: row.values }) });
    }
    const drafts: DeliveryDraft[] = [];
    if (sender.ok && mailed.length > 0) {
      const queued = await services.mail.enqueueMany(
        mailed.map(({ row, content }) => ({
          teamId,
          from: sender.sender.from,
          to: [row.address],
          subject: content.subject,
          text: content.text,
          ...(content.html !== undefined ? { html: content.html } : {}),
          source: 'MESSAGE_COMPOSER',
          sourceId: `${message.simplyId}/${row.simplyId}`,
          unsubscribe: true,
        })),
        db,
      );
      for (const [i, mail] of queued.entries()) {
        const { row, content } = mailed[i]!;
        // a refusal of one copy (an address the transport does not take, a body too long once
        // filled in) fails that recipient; the others go on
        if (!mail.ok) outcomes.push({ id: row.id, state: 'FAILED', mailMessageId: null, error: mail.error.message });
        else {
          outcomes.push({ id: row.id, state: 'QUEUED', mailMessageId: mail.id, error: null });
          drafts.push(historyDraft(message, row, sender.sender.emailAddress, content, mail.id));
        }
      }
    }
    await recordDeliveries(db, drafts);
    await db.query(
      `UPDATE "OutgoingMessageRecipient" rcp
          SET state = u.state, "mailMessageId" = u.mail, "errorMessage" = u.error, "updatedAt" = now()
         FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[]) AS u(id, state, mail, error)
        WHERE rcp."teamId" = $1 AND rcp.id = u.id`,
      [teamId, outcomes.map((o) => o.id), outcomes.map((o) => o.state), outcomes.map((o) => o.mailMessageId), outcomes.map((o) => o.error?.slice(0, 1000) ?? null)],
    );
  });
  await finishIfDone(services.pool, teamId, id);
}

function historyDraft(message: OutgoingMessage, row: PendingRow, senderAddress: string, content: ReturnType<typeof renderContent>, mailMessageId: string): DeliveryDraft {
  return {
    teamId: message.teamId,
    dataRecordId: row.dataRecordId,
    outgoingMessageId: message.id,
    sourceType: 'MESSAGE_COMPOSER',
    sourceSimplyId: message.simplyId,
    channelId: 'EMAIL',
    mailMessageId,
    destination: row.address,
    senderAddress,
    subject: content.subject,
    text: content.text || null,
    html: content.html ?? null,
    // the history keeps the copy as rendered, where the unsubscribe link is still the slot the
    // mailer filled: a credential's place, masked like one
    secrets: [UNSUBSCRIBE_URL_SLOT],
  };
}

/**
 * SENDING → SENT once recipients were resolved and none is PENDING; ERROR_SENDING when none of
 * them was handed to the mail transport. Run after each batch commits (a batch still holding rows
 * leaves them PENDING to this statement, and finishes the message itself after its own commit).
 */
export async function finishIfDone(db: pg.Pool | pg.PoolClient, teamId: bigint, id: bigint): Promise<void> {
  await db.query(
    `WITH handed AS (SELECT EXISTS (SELECT 1 FROM "OutgoingMessageRecipient" WHERE "teamId" = $1 AND "outgoingMessageId" = $2 AND "mailMessageId" IS NOT NULL) AS any)
     UPDATE "OutgoingMessage" m
        SET status = CASE WHEN handed.any THEN 'SENT' ELSE 'ERROR_SENDING' END,
            "sentAt" = CASE WHEN handed.any THEN now() END,
            "errorMessage" = CASE WHEN handed.any THEN NULL ELSE 'No recipient could be handed to the mail transport: see the recipients'' states (failed, suppressed) in the statistics' END,
            "updatedAt" = now()
       FROM handed
      WHERE m."teamId" = $1 AND m.id = $2 AND m.status = 'SENDING'
        AND EXISTS (SELECT 1 FROM "OutgoingMessageRecipient" WHERE "teamId" = $1 AND "outgoingMessageId" = $2)
        AND NOT EXISTS (SELECT 1 FROM "OutgoingMessageRecipient" WHERE "teamId" = $1 AND "outgoingMessageId" = $2 AND state = 'PENDING')`,
    [teamId, id],
  );
}

/** SCHEDULED messages whose time has come move to SENDING, with their resolve jobs (one message, or every due one). */
export async function startDueMessages(services: Services, only?: MessageJob): Promise<number> {
  return inTransaction(services.pool, async (db) => {
    const one = only ? `AND "teamId" = $1 AND id = $2` : '';
    const { rows } = await db.query<{ id: string; teamId: string }>(
      `UPDATE "OutgoingMessage" SET status = 'SENDING', "sendStartedAt" = now(), "updatedAt" = now()
        WHERE id IN (SELECT id FROM "OutgoingMessage" WHERE status = 'SCHEDULED' AND "scheduledAt" <= now() ${one}
                      ORDER BY "scheduledAt" LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING id::text, "teamId"::text`,
      only ? [BigInt(only.teamId), BigInt(only.outgoingMessageId)] : [],
    );
    await queueResolve(services, db, rows.map((r) => jobOf(r.teamId, r.id)));
    return rows.length;
  });
}

/**
 * SENDING messages (started a while ago) with no job of theirs left waiting or running: the jobs
 * were lost, so the tick does what they would have done. Unresolved: resolve again; PENDING rows
 * left: queue batches for them; none: finish.
 */
export async function repairStalledSends(services: Services): Promise<number> {
  const { rows } = await services.pool.query<{ id: string; teamId: string; resolved: boolean; pending: string }>(
    `SELECT m.id::text, m."teamId"::text,
            EXISTS (SELECT 1 FROM "OutgoingMessageRecipient" r WHERE r."teamId" = m."teamId" AND r."outgoingMessageId" = m.id) AS resolved,
            (SELECT count(*) FROM "OutgoingMessageRecipient" r WHERE r."teamId" = m."teamId" AND r."outgoingMessageId" = m.id AND r.state = 'PENDING') AS pending
       FROM "OutgoingMessage" m
      WHERE m.status = 'SENDING' AND m."sendStartedAt" < now() - make_interval(secs => $3)
        AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name IN ($1, $2) AND j.state < 'completed' AND j.data ->> 'outgoingMessageId' = m.id::text)
      LIMIT 100`,
    [RESOLVE_RECIPIENTS, SEND_BATCH, REPAIR_AFTER_SECONDS],
  );
  for (const row of rows) {
    const job = jobOf(row.teamId, row.id);
    if (!row.resolved) await inTransaction(services.pool, (db) => queueResolve(services, db, [job]));
    else if (Number(row.pending) > 0) await inTransaction(services.pool, (db) => queueBatches(services, db, job, Math.ceil(Number(row.pending) / batchSizeFor(services))));
    else await finishIfDone(services.pool, BigInt(row.teamId), BigInt(row.id));
  }
  return rows.length;
}
