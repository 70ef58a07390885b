// Team-admin reads of the outgoing-mail table (docs/api/mail.md). The table is the outbox of a
// deployment without SMTP and the delivery log of one with it; either way a team sees only its
// own messages, and another team's mailSimplyId is simply not found.
import type { MailMessage, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import type { Paging } from '../../app/paging.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import { mailId } from './mail.ids.ts';
import { MAIL_STATUSES, type MailStatusName } from './mail.input.ts';


/** Absent or empty: every status. Checked here so both faces answer with the same 400. */
function parseStatus(status: string | null | undefined): MailStatusName | undefined {
  if (status === undefined || status === null || status === '') return undefined;
  if ((MAIL_STATUSES as readonly string[]).includes(status)) return status as MailStatusName;
  throw new ValidationError(`status must be one of ${MAIL_STATUSES.join(', ')}`, [{ field: 'status', message: `unknown status ${JSON.stringify(status)}` }]);
}

/** A checked filter of the team's messages (parseMailFilter). */
export interface MailMessageFilter {
  status?: MailStatusName;
}

/** Checks the list's filter before anything is read, so a bad status is a 400 whatever the paging. */
export function parseMailFilter(ctx: RequestContext, args: { status?: string | null }): MailMessageFilter {
  requireTeam(ctx);
  const status = parseStatus(args.status);
  return status ? { status } : {};
}

function whereOf(ctx: RequestContext, filter: MailMessageFilter): Prisma.MailMessageWhereInput {
  const team = requireTeam(ctx);
  return filter.status ? { teamId: team.id, status: filter.status } : { teamId: team.id };
}

/** MailMessage has no relations: the caller's selection is only ever a `select`. */
const selectionOf = (query: PrismaSelection) => query as { select?: object };

const MAIL_ORDER: Prisma.MailMessageOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/**
 * A page of the caller's team's messages, newest first. `query` is the caller's selection: a list
 * that does not ask for the bodies never reads them.
 */
export function findMailMessages(ctx: RequestContext, filter: MailMessageFilter, query: PrismaSelection, paging: Paging) {
  const where = whereOf(ctx, filter);
  return ctx.services.prisma.mailMessage.findMany({ ...selectionOf(query), where, orderBy: MAIL_ORDER, skip: paging.offset, take: paging.limit });
}

export function countMailMessages(ctx: RequestContext, filter: MailMessageFilter): Promise<number> {
  return ctx.services.prisma.mailMessage.count({ where: whereOf(ctx, filter) });
}

export async function findMailMessage(ctx: RequestContext, simplyId: string, query: PrismaSelection): Promise<MailMessage> {
  const team = requireTeam(ctx);
  mailId.assert(simplyId, 'mailSimplyId');
  const row = await ctx.services.prisma.mailMessage.findUnique({ ...selectionOf(query), where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError('Mail message', simplyId);
  return row as MailMessage;
}
