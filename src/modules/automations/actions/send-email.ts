// SEND_EMAIL: fixed recipients and/or the record's email field, merge tags from the record, handed
// to the mailer (src/modules/mail), which stores the message and sends it. The mail's sourceId is the
// action's idempotency key, unique per team for AUTOMATION mail (the mail row is its own effect
// key): a repeated run finds the message and sends nothing again, and two runs at once store one
// message (the mailer skips the second insert and answers with the first message).
// A message that goes to the record's own address is a delivery to that constituent: it is
// recorded in the communication history in the transaction that queues the mail, so the history
// row exists exactly when the mail does (and follows its state). Fixed addresses are staff or
// systems, not the constituent: they leave no history row. The record's address is left out when
// it is on the team's suppression list (the constituent opted out, or mail to it bounces); fixed
// addresses are the team's own and are not checked.
import { decodeValue } from '../../../kernel/index.ts';
import { recordDelivery } from '../../communications/index.ts';
import { suppressedAmong } from '../../mail-feedback/index.ts';
import { MAX_SUBJECT, parseMailbox } from '../../mail/index.ts';
import { renderTemplate } from '../../merge-tags/index.ts';
import { inTransaction } from '../../../app/transaction.ts';
import { type ActionHandler, fieldsOf } from './action-run.ts';
import { NoRecipientError, RecipientSuppressedError } from '../automations.errors.ts';

/** The bare address of MAIL_FROM (`Name <address>` or an address), as the history records senders. */
function platformSenderAddress(mailFrom: string): string {
  const parsed = parseMailbox(mailFrom);
  return parsed.ok ? parsed.value.address : mailFrom;
}

export const sendEmail: ActionHandler = async (run) => {
  // a repeat is done before anything is checked again (the address may be suppressed by now)
  const already = await run.services.prisma.mailMessage.findFirst({ where: { teamId: run.team.id, source: 'AUTOMATION', sourceId: run.idempotencyKey }, select: { id: true } });
  if (already) return;
  const config = run.config as { to?: string[]; toFieldSimplyId?: string; subject: string; text: string; html?: string };
  const fields = fieldsOf(run);
  const recipients = [...(config.to ?? [])];
  let constituentAddress: string | null = null;
  if (config.toFieldSimplyId) {
    const field = fields.find((f) => f.dataFieldSimplyId === config.toFieldSimplyId);
    const value = field && run.record ? decodeValue(field, run.record.values[field.dataFieldSimplyId]) : null;
    if (typeof value === 'string' && value) {
      recipients.push(value);
      constituentAddress = value;
    } else if (recipients.length === 0) throw new NoRecipientError(`The record has no email address in ${config.toFieldSimplyId}`);
  }
  if (constituentAddress !== null && (await suppressedAmong(run.services.pool, run.team.id, [constituentAddress])).size > 0) {
    recipients.pop();
    if (recipients.length === 0) throw new RecipientSuppressedError(constituentAddress);
    constituentAddress = null;
  }
  const seen = new Set<string>();
  const to = recipients.filter((r) => !seen.has(r.toLowerCase()) && seen.add(r.toLowerCase()));
  const mail = {
    teamId: run.team.id,
    to,
    // a long merged subject is cut to the mailer's limit, not refused
    subject: [...renderTemplate(config.subject, { fields, record: run.record }).replace(/[\r\n]+/g, ' ')].slice(0, MAX_SUBJECT).join(''),
    text: renderTemplate(config.text, { fields, record: run.record }),
    ...(config.html ? { html: renderTemplate(config.html, { fields, record: run.record }, { html: true }) } : {}),
    source: 'AUTOMATION',
    sourceId: run.idempotencyKey,
  };
  const record = run.record;
  if (!record || constituentAddress === null) {
    await run.services.mail.enqueue(mail);
    return;
  }
  await inTransaction(run.services.pool, async (db) => {
    const queued = await run.services.mail.enqueue(mail, db);
    // a message stored before (a concurrent run of the same key) came with its history row
    if (queued.existing) return;
    await recordDelivery(db, {
      teamId: run.team.id,
      dataRecordId: record.id,
      sourceType: 'AUTOMATION',
      sourceSimplyId: run.automationSimplyId,
      channelId: 'EMAIL',
      mailMessageId: queued.id,
      destination: constituentAddress,
      senderAddress: platformSenderAddress(run.services.config.MAIL_FROM),
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
    });
  });
};
