// The standard reads of outgoing messages (docs/api/outgoing-messages.md "Reading messages"):
// lists, the sent list, one message, its status aggregate and its per-state statistics. The
// counts are read from the recipient rows every time (one grouped statement), so they keep
// changing after sending as delivery reports, bounces and complaints arrive.
import type { MessageSender, OutgoingMessage, OutgoingMessageTemplate, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { byCreation, paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import { DELIVERY_METHODS, MESSAGE_STATUSES } from './outgoing-messages.input.ts';
import { outgoingMessageId } from './outgoing-messages.ids.ts';
import { selectionView, storedSelectionOf, type SelectionView } from './recipient-selection.ts';
import { recipientStateCounts } from './recipients.sql.ts';

const LABEL = 'Outgoing message';

export interface ListOutgoingMessagesArgs extends PageInput {
  status?: string | null;
  deliveryMethod?: string | null;
}

/** The message of the caller's team; another team's, like a missing one, is 404. `field` names the id in a 400. */
export async function findMessage(ctx: RequestContext, simplyId: string, field = 'outgoingMessageSimplyId'): Promise<OutgoingMessage> {
  const team = requireTeam(ctx);
  outgoingMessageId.assert(simplyId, field);
  const row = await ctx.services.prisma.outgoingMessage.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError(LABEL, simplyId);
  return row;
}

function oneOf(name: string, value: string | null | undefined, allowed: readonly string[]): string | undefined {
  if (value == null) return undefined;
  if (!allowed.includes(value)) throw new ValidationError(`${name} must be one of ${allowed.join(', ')}`, [{ field: name, message: `must be one of ${allowed.join(', ')}` }]);
  return value;
}

/** The team's messages, newest first, optionally of one status and channel. */
export async function listOutgoingMessages(ctx: RequestContext, args: ListOutgoingMessagesArgs): Promise<Page<OutgoingMessage>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where: Prisma.OutgoingMessageWhereInput = { teamId: team.id };
  const status = oneOf('status', args.status, MESSAGE_STATUSES);
  const deliveryMethod = oneOf('deliveryMethod', args.deliveryMethod, DELIVERY_METHODS);
  if (status) where.status = status;
  if (deliveryMethod) where.deliveryMethod = deliveryMethod;
  const { prisma } = ctx.services;
  const nodes = await prisma.outgoingMessage.findMany({ where, ...byCreation(paging, 'desc') });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => prisma.outgoingMessage.count({ where })) };
}

/** The team's SENT messages, most recently sent first. */
export async function listSentMessages(ctx: RequestContext, args: Omit<ListOutgoingMessagesArgs, 'status'>): Promise<Page<OutgoingMessage>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where: Prisma.OutgoingMessageWhereInput = { teamId: team.id, status: 'SENT' };
  const deliveryMethod = oneOf('deliveryMethod', args.deliveryMethod, DELIVERY_METHODS);
  if (deliveryMethod) where.deliveryMethod = deliveryMethod;
  const { prisma } = ctx.services;
  const nodes = await prisma.outgoingMessage.findMany({ where, orderBy: [{ sentAt: 'desc' }, { id: 'desc' }], skip: paging.offset, take: paging.limit });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => prisma.outgoingMessage.count({ where })) };
}

interface TeamRowKey {
  teamId: bigint;
  id: bigint;
}

const teamRowKey = (k: TeamRowKey) => `${k.teamId}:${k.id}`;

/** Answers the rows of `keys` in their order (null where none), from rows fetched in one statement. */
function inKeyOrder<T extends TeamRowKey>(keys: readonly TeamRowKey[], rows: readonly T[]): (T | null)[] {
  const byKey = new Map(rows.map((r) => [teamRowKey(r), r]));
  return keys.map((k) => byKey.get(teamRowKey(k)) ?? null);
}

const inKeys = (keys: readonly TeamRowKey[]) => ({ teamId: { in: [...new Set(keys.map((k) => k.teamId))] }, id: { in: keys.map((k) => k.id) } });

/**
 * The sender a message names (archived ones too: the message keeps showing whom it named); null
 * when it names none. A page of messages reads all their senders with one statement.
 */
export async function senderOf(ctx: RequestContext, row: OutgoingMessage): Promise<MessageSender | null> {
  if (row.senderId === null) return null;
  const { prisma } = ctx.services;
  const loader = requestLoader<TeamRowKey, MessageSender | null>(ctx, 'outgoing-messages.sender', async (keys) => inKeyOrder(keys, await prisma.messageSender.findMany({ where: inKeys(keys) })), teamRowKey);
  return loader.load({ teamId: row.teamId, id: row.senderId });
}

/**
 * The template the message was started from or linked to; archived ones too (the link stays); null
 * when none. A page of messages reads all their templates with one statement.
 */
export async function templateOf(ctx: RequestContext, row: OutgoingMessage): Promise<OutgoingMessageTemplate | null> {
  if (row.templateId === null) return null;
  const { prisma } = ctx.services;
  const loader = requestLoader<TeamRowKey, OutgoingMessageTemplate | null>(
    ctx,
    'outgoing-messages.template',
    async (keys) => inKeyOrder(keys, await prisma.outgoingMessageTemplate.findMany({ where: inKeys(keys) })),
    teamRowKey,
  );
  return loader.load({ teamId: row.teamId, id: row.templateId });
}

export function recipientsOf(ctx: RequestContext, row: OutgoingMessage): Promise<SelectionView | null> {
  return selectionView(ctx.services, row.teamId, storedSelectionOf(row));
}

/** The status aggregate: delivered counts SENT and DELIVERED recipients (accepted by the receiving side, no bounce reported). */
export interface MessageStatusAggregate {
  status: string;
  totalRecipients: number;
  delivered: number;
  bounced: number;
  complained: number;
}

export const RECIPIENT_STATES = ['PENDING', 'QUEUED', 'SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED'] as const;

export interface MessageStats {
  totalRecipients: number;
  pending: number;
  queued: number;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  failed: number;
  suppressed: number;
  /** recipients handed to the mail transport: everything but pending and suppressed */
  attempted: number;
  deliveryRate: number;
  bounceRate: number;
  complaintRate: number;
}

async function countsOf(ctx: RequestContext, row: OutgoingMessage): Promise<Record<(typeof RECIPIENT_STATES)[number], number>> {
  const counts = await recipientStateCounts(ctx.services.pool, row.teamId, row.id);
  return Object.fromEntries(RECIPIENT_STATES.map((s) => [s, counts[s] ?? 0])) as Record<(typeof RECIPIENT_STATES)[number], number>;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export async function messageStatus(ctx: RequestContext, simplyId: string): Promise<MessageStatusAggregate> {
  const row = await findMessage(ctx, simplyId, 'messageSimplyId');
  const c = await countsOf(ctx, row);
  return { status: row.status, totalRecipients: total(c), delivered: c.SENT + c.DELIVERED, bounced: c.BOUNCED, complained: c.COMPLAINED };
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export async function messageStats(ctx: RequestContext, simplyId: string): Promise<MessageStats> {
  const row = await findMessage(ctx, simplyId);
  const c = await countsOf(ctx, row);
  const attempted = c.QUEUED + c.SENT + c.DELIVERED + c.BOUNCED + c.COMPLAINED + c.FAILED;
  return {
    totalRecipients: total(c),
    pending: c.PENDING,
    queued: c.QUEUED,
    sent: c.SENT,
    delivered: c.DELIVERED,
    bounced: c.BOUNCED,
    complained: c.COMPLAINED,
    failed: c.FAILED,
    suppressed: c.SUPPRESSED,
    attempted,
    deliveryRate: rate(c.SENT + c.DELIVERED, attempted),
    bounceRate: rate(c.BOUNCED, attempted),
    complaintRate: rate(c.COMPLAINED, attempted),
  };
}
