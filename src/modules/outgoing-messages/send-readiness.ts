// Whether a message can be scheduled or sent, and what to fix first (docs/api/outgoing-messages.md
// "Send readiness"): blockers stop scheduling and sending, warnings do not. The same check guards
// the status moves to SCHEDULED and SENDING, so what readiness reports is what a move enforces.
import type { OutgoingMessage } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { unknownTags } from '../merge-tags/index.ts';
import { channelAvailable } from './channel-providers.ts';
import { sentTexts } from './message-content.ts';
import { senderForMessage } from './message-sender.ts';
import { approvalRequired } from './message-settings.service.ts';
import { findMessage } from './outgoing-messages.service.ts';
import { compileSelection, storedSelectionOf } from './recipient-selection.ts';
import { countSelection } from './recipients.sql.ts';

export interface ReadinessItem {
  code: string;
  message: string;
}

export interface SendReadiness {
  ready: boolean;
  blockers: ReadinessItem[];
  warnings: ReadinessItem[];
  /** distinct addresses that would be sent to now (suppressed ones left out); null when recipients cannot be worked out */
  estimatedRecipients: number | null;
}

const FINISHED = ['SENDING', 'SENT', 'ERROR_SENDING'];

/** The checks for a message as stored. `content` checks only what a test send needs (channel, sender, subject, body). */
export async function readinessOf(
  ctx: RequestContext,
  row: OutgoingMessage,
  // approval: the team's setting as the caller already read it, so one request judges by one value
  options: { content?: boolean; approval?: boolean } = {},
): Promise<SendReadiness> {
  const blockers: ReadinessItem[] = [];
  const warnings: ReadinessItem[] = [];
  const block = (code: string, message: string) => blockers.push({ code, message });
  const warn = (code: string, message: string) => warnings.push({ code, message });
  const { services } = ctx;
  let estimatedRecipients: number | null = null;

  if (FINISHED.includes(row.status)) {
    block('ALREADY_SENT', `The message is ${row.status}: it cannot be sent again (create a new message)`);
    return { ready: false, blockers, warnings, estimatedRecipients };
  }
  if (!channelAvailable(row.deliveryMethod)) block('DELIVERY_METHOD_UNAVAILABLE', `No ${row.deliveryMethod} provider is configured: ${row.deliveryMethod} messages cannot be sent yet`);
  const email = row.deliveryMethod === 'EMAIL';
  if (email) {
    const sender = await senderForMessage(services, row.teamId, row.senderId);
    if (!sender.ok) block(sender.code, sender.message);
    if (!row.subjectLine) block('SUBJECT_MISSING', 'An email needs a subject line (subjectLine)');
  }
  const body = row.contentType === 'HTML' ? row.htmlContent : row.textContent;
  if (!body) block('BODY_EMPTY', row.contentType === 'HTML' ? 'The message has no body: set htmlContent (contentType HTML)' : 'The message has no body: set textContent (contentType PLAIN_TEXT)');
  if (email && row.contentType === 'HTML' && body && !row.textContent) warn('NO_TEXT_VERSION', 'No plain-text version (textContent): recipients whose mail program shows only text see an empty message');

  const compiled = await compileSelection(services, services.pool, row.teamId, storedSelectionOf(row));
  const fields = compiled.ok ? compiled.selection.fields : row.dataCollectionId === null ? null : [];
  // each text on its own: joined, the end of one and the start of the next could read as one tag
  const tags = [...new Set(sentTexts(row).flatMap((text) => unknownTags(text, fields)))];
  if (tags.length > 0) {
    block('UNKNOWN_MERGE_TAGS', compiled.ok
      ? `Merge tags that name no field of the recipients' collection: ${tags.map((t) => `{{${t}}}`).join(', ')}`
      : `Merge tags cannot be filled without recipients: ${tags.map((t) => `{{${t}}}`).join(', ')}`);
  }
  if (options.content) return { ready: blockers.length === 0, blockers, warnings, estimatedRecipients };

  if (!compiled.ok) block(compiled.problem.code, compiled.problem.message);
  else if (email && !compiled.selection.emailField) block('EMAIL_FIELD_MISSING', 'Choose the field that holds the recipients\' addresses (recipients.emailFieldSimplyId)');
  else if (email) {
    const counts = await countSelection(services.pool, row.teamId, compiled.selection);
    estimatedRecipients = counts.addresses - counts.suppressed;
    if (estimatedRecipients === 0) {
      block('NO_RECIPIENTS', counts.matching === 0
        ? 'No record matches the recipients\' collection, view and filters'
        : `None of the ${counts.matching} matching records has an address that may be mailed (${counts.withoutAddress} without an address, ${counts.suppressed} suppressed)`);
    }
    if (counts.withoutAddress > 0) warn('RECIPIENTS_WITHOUT_ADDRESS', `${counts.withoutAddress} matching record(s) have no email address and are left out`);
    const duplicates = counts.matching - counts.withoutAddress - counts.addresses;
    if (duplicates > 0) warn('DUPLICATE_ADDRESSES', `${duplicates} matching record(s) share an address with another: each address gets the message once`);
    if (counts.suppressed > 0) warn('SUPPRESSED_RECIPIENTS', `${counts.suppressed} address(es) are on the team's suppression list (unsubscribed, bounced, complained or added by hand) and are not mailed`);
  }

  if ((row.status === 'DRAFT' || row.status === 'AWAITING_APPROVAL') && (options.approval ?? (await approvalRequired(services, row.teamId)))) {
    block('APPROVAL_REQUIRED', row.status === 'DRAFT' ? 'The team requires approval: move the message to AWAITING_APPROVAL for another member to approve' : 'The message awaits approval by another team member');
  }
  if (row.scheduledAt && row.scheduledAt.getTime() <= Date.now() && row.status !== 'SCHEDULED') {
    warn('SCHEDULED_AT_PAST', 'scheduledAt is in the past: give a future time to schedule it, or send it now');
  }
  return { ready: blockers.length === 0, blockers, warnings, estimatedRecipients };
}

export async function sendReadiness(ctx: RequestContext, simplyId: string): Promise<SendReadiness> {
  return readinessOf(ctx, await findMessage(ctx, simplyId));
}
