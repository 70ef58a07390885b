// Team-admin reads of the outgoing-mail table (docs/api/mail.md). The table is the outbox of a
// deployment without SMTP and the delivery log of one with it; either way a team sees only its
// own messages, and another team's mailSimplyId is simply not found.
import type { MailMessage, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { assertSimplyId } from '../../app/ids.ts';

export const MAIL_STATUSES = ['QUEUED', 'SENT', 'STORED', 'FAILED'] as const;
export type MailStatusName = (typeof MAIL_STATUSES)[number];

function parseStatus(status: string | null | undefined): MailStatusName | undefined {
  if (status === undefined || status === null || status === '') return undefined;
  if ((MAIL_STATUSES as readonly string[]).includes(status)) return status as MailStatusName;
  throw new ValidationError(`status must be one of ${MAIL_STATUSES.join(', ')}`, [{ field: 'status', message: `unknown status ${JSON.stringify(status)}` }]);
}

/** The filter of a page of the caller's team's messages (newest first: see MAIL_ORDER). */
export function mailMessageFilter(ctx: RequestContext, status: string | null | undefined): Prisma.MailMessageWhereInput {
  const team = requireTeam(ctx);
  const parsed = parseStatus(status);
  return parsed ? { teamId: team.id, status: parsed } : { teamId: team.id };
}

export const MAIL_ORDER: Prisma.MailMessageOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

export async function findMailMessage(ctx: RequestContext, simplyId: string, query: { select?: object; include?: object }): Promise<MailMessage> {
  const team = requireTeam(ctx);
  assertSimplyId(simplyId, 'mail', 'mailSimplyId');
  const row = await ctx.services.prisma.mailMessage.findUnique({ ...(query as object), where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError('Mail message', simplyId);
  return row as MailMessage;
}
