// A test send: the message rendered now (from one record of the recipients' collection, or with
// every merge tag empty) and mailed to up to five addresses, its subject marked as a test. It is
// no send of the message: no recipient rows, no communication history, no List-Unsubscribe header,
// and the message's status stays as it is. The body shows the unsubscribe link where recipients
// will see theirs (`{{unsubscribe_url}}` or the footer), but as the link of a sample page that says
// it comes from a test copy and unsubscribes nobody: a tester clicking it must not end up
// suppressed, and each real recipient's link names their own copy, which a test copy is not.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { inTransaction } from '../../app/transaction.ts';
import { collectionFor, findRecords } from '../../kernel/index.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import type { MergeField, MergeRecord } from '../merge-tags/index.ts';
import { renderContent } from './message-content.ts';
import { senderForMessage } from './message-sender.ts';
import { DeliveryMethodUnavailableError, NotReadyToSendError } from './outgoing-messages.errors.ts';
import { testSendInput } from './outgoing-messages.input.ts';
import { parseInput } from '../../app/validate.ts';
import { findMessage } from './outgoing-messages.service.ts';
import { readinessOf } from './send-readiness.ts';

export const TEST_SUBJECT_PREFIX = '[TEST] ';
/** the mail log's source of test copies (their sourceId is the message's simplyId) */
export const TEST_SEND_SOURCE = 'MESSAGE_COMPOSER_TEST';

export interface TestSendResult {
  /** the mail messages, one per address in the order given (GET /v1/mail-messages/{mailSimplyId}) */
  mailSimplyIds: string[];
}

/** Which blockers stop a test copy: what it needs to be a mail at all. */
const CONTENT_BLOCKERS = new Set(['DELIVERY_METHOD_UNAVAILABLE', 'NO_SENDER', 'SENDER_ARCHIVED', 'SENDER_UNVERIFIED', 'SUBJECT_MISSING', 'BODY_EMPTY']);

export async function testSendOutgoingMessage(ctx: RequestContext, simplyId: string, raw: unknown): Promise<TestSendResult> {
  const message = await findMessage(ctx, simplyId);
  const input = parseInput(testSendInput, raw, 'Invalid test send');
  if (message.deliveryMethod !== 'EMAIL') throw new DeliveryMethodUnavailableError(message.deliveryMethod);
  const readiness = await readinessOf(ctx, message, { content: true });
  const blockers = readiness.blockers.filter((b) => CONTENT_BLOCKERS.has(b.code));
  if (blockers.length > 0) throw new NotReadyToSendError(blockers);
  const sender = await senderForMessage(ctx.services, message.teamId, message.senderId);
  if (!sender.ok) throw new NotReadyToSendError([{ code: sender.code, message: sender.message }]);

  let fields: readonly MergeField[] = [];
  let record: MergeRecord | null = null;
  if (input.dataRecordSimplyId != null) {
    assertDataSimplyId(input.dataRecordSimplyId, 'dataRecordSimplyId');
    const schema = await ctx.services.schemas.get(message.teamId);
    const collection = message.dataCollectionId === null ? undefined : schema.collectionsById.get(message.dataCollectionId);
    if (!collection) {
      throw new ValidationError('The message has no recipients\' collection to take the record from', [{ field: 'dataRecordSimplyId', message: 'choose the message\'s recipients first' }]);
    }
    const access = await collectionFor(ctx, collection.simplyId, 'READ', 'dataRecordSimplyId');
    const [row] = await findRecords(ctx.services.pool, message.teamId, [input.dataRecordSimplyId]);
    if (!row || row.collectionId !== schema.fieldSource(collection).id) throw new NotFoundError('Data record', input.dataRecordSimplyId);
    // only what the caller may read is filled in; other tags stay empty
    fields = access.readable;
    record = { simplyId: row.simplyId, calculatedName: row.calculatedName, values: row.values };
  }
  const content = renderContent(message, fields, record, TEST_SUBJECT_PREFIX);
  const mailSimplyIds = await inTransaction(ctx.services.pool, async (db) => {
    const ids: string[] = [];
    for (const to of input.to) {
      const mail = await ctx.services.mail.enqueue(
        {
          teamId: message.teamId,
          from: sender.sender.from,
          to: [to],
          subject: content.subject,
          text: content.text,
          ...(content.html !== undefined ? { html: content.html } : {}),
          source: TEST_SEND_SOURCE,
          sourceId: message.simplyId,
        },
        db,
      );
      ids.push(mail.simplyId);
    }
    return ids;
  });
  return { mailSimplyIds };
}
