// What the email channel answers readers (email.schema.ts): the attachments of messages, batched
// per request, with their inspection outcome from the files area, and the team's email addresses.
import type { RequestContext } from '../../app/context.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import { platformUploadOutcomes } from '../files/index.ts';
import { inboundMailDomain } from '../mail-feedback/index.ts';
import { teamInboxAddress } from './email-addresses.ts';
import { attachmentsOf, type AttachmentRow } from './email.sql.ts';
import type { MessageRow } from './messages.sql.ts';

export const ATTACHMENT_STATUSES = ['PENDING', 'STORED', 'REJECTED'] as const;

export interface AttachmentView extends AttachmentRow {
  status: (typeof ATTACHMENT_STATUSES)[number];
  fileSimplyId: string | null;
  reason: string | null;
}

/** A message's attachments with their inspection outcome; one statement each for a whole page of messages. */
function attachmentLoader(ctx: RequestContext) {
  return requestLoader<MessageRow, AttachmentView[]>(
    ctx,
    'conversationMessage.attachments',
    async (messages) => {
      const teamId = messages[0]!.teamId;
      const rows = await attachmentsOf(ctx.services.pool, teamId, messages.filter((m) => m.teamId === teamId).map((m) => m.id));
      const outcomes = await platformUploadOutcomes(ctx.services.pool, teamId, rows.flatMap((r) => (r.fileUploadSimplyId ? [r.fileUploadSimplyId] : [])));
      const byMessage = new Map<bigint, AttachmentView[]>();
      for (const row of rows) {
        const outcome = row.fileUploadSimplyId ? outcomes.get(row.fileUploadSimplyId) : undefined;
        const view: AttachmentView = !outcome
          ? { ...row, status: 'REJECTED', fileSimplyId: null, reason: row.rejectedReason ?? 'FAILED' }
          : outcome.status === 'COMPLETED'
            ? { ...row, status: 'STORED', fileSimplyId: outcome.fileSimplyId, reason: null }
            : outcome.status === 'PENDING' || outcome.status === 'CREATED'
              ? { ...row, status: 'PENDING', fileSimplyId: null, reason: null }
              : { ...row, status: 'REJECTED', fileSimplyId: null, reason: outcome.rejectionReason ?? outcome.status };
        byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), view]);
      }
      return messages.map((m) => (m.teamId === teamId ? byMessage.get(m.id) ?? [] : []));
    },
    (m) => `${m.teamId}:${m.id}`,
  );
}

/** The message's attachments: only an inbound email has any. */
export async function messageAttachments(ctx: RequestContext, message: MessageRow): Promise<AttachmentView[]> {
  return message.channel === 'EMAIL' && message.authorType === 'END_USER' ? attachmentLoader(ctx).load(message) : [];
}

export interface EmailAddresses {
  inboundAddress: string;
  domain: string;
}

/** The team's inbound address (its key made on first read) and the domain of reply addresses. */
export async function teamEmailAddresses(ctx: RequestContext): Promise<EmailAddresses> {
  const team = requireTeam(ctx);
  return { inboundAddress: await teamInboxAddress(ctx.services.pool, ctx.services.config, team.id), domain: inboundMailDomain(ctx.services.config) };
}
