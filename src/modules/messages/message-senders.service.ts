// Who a team's messages come from. EMAIL senders only. A sender on a VERIFIED domain of the team
// (or one the operator pre-verified, MAIL_PREVERIFIED_DOMAINS) is verified at once; any other is
// created PENDING and its address is mailed a confirmation link (sender-verification.ts). Each
// channel has exactly one default while it has any active sender: the first one becomes it,
// making another the default clears the old one, archiving the default hands it to the oldest
// remaining sender. Those moves take one advisory lock per team (messageSenders), so
// concurrent writers cannot leave two defaults or none. docs/api/messages.md "Senders and mail domains".
import type { MessageSender } from '../../generated/prisma/client.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { RequestContext } from '../../app/context.ts';
import { byCreation, paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, RateLimitError, ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { createMessageSenderInput, domainOfAddress, updateMessageSenderInput } from './message-senders.input.ts';
import { DELIVERY_METHODS } from './message-templates.input.ts';
import { SenderAlreadyVerifiedError } from './messages.errors.ts';
import { messageSenderId } from './messages.ids.ts';
import { mailConfirmation, onPreverifiedDomain, RESEND_COOLDOWN_MS, senderIsVerified } from './sender-verification.ts';

const LABEL = 'Message sender';

export interface ListMessageSendersArgs extends PageInput {
  deliveryMethod?: string | null;
}

/** Serializes the team's sender and domain writes (see the top of this file). */
export async function lockTeamSenders(tx: Tx, teamId: bigint): Promise<void> {
  const lock = advisoryLock('messageSenders', String(teamId));
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
}

/** The active sender of the caller's team; another team's, an archived or a missing one is 404. */
async function findSender(ctx: RequestContext, simplyId: string): Promise<MessageSender> {
  const team = requireTeam(ctx);
  messageSenderId.assert(simplyId, 'messageSenderSimplyId');
  const row = await ctx.services.prisma.messageSender.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row || row.archivedAt) throw new NotFoundError(LABEL, simplyId);
  return row;
}

/** The team's active senders, oldest first. */
export async function listMessageSenders(ctx: RequestContext, args: ListMessageSendersArgs): Promise<Page<MessageSender>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where: { teamId: bigint; archivedAt: null; deliveryMethod?: string } = { teamId: team.id, archivedAt: null };
  if (args.deliveryMethod != null) {
    if (!(DELIVERY_METHODS as readonly string[]).includes(args.deliveryMethod)) {
      throw new ValidationError(`deliveryMethod must be one of ${DELIVERY_METHODS.join(', ')}`, [{ field: 'deliveryMethod', message: `must be one of ${DELIVERY_METHODS.join(', ')}` }]);
    }
    where.deliveryMethod = args.deliveryMethod;
  }
  const { prisma } = ctx.services;
  const nodes = await prisma.messageSender.findMany({ where, ...byCreation(paging, 'asc') });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => prisma.messageSender.count({ where })) };
}

/** Makes `sender` its channel's only default (within the caller's transaction and lock). */
async function makeDefault(tx: Tx, sender: Pick<MessageSender, 'id' | 'teamId' | 'deliveryMethod'>): Promise<void> {
  await tx.messageSender.updateMany({ where: { teamId: sender.teamId, deliveryMethod: sender.deliveryMethod, isDefault: true, NOT: { id: sender.id } }, data: { isDefault: false } });
  await tx.messageSender.updateMany({ where: { id: sender.id, isDefault: false }, data: { isDefault: true } });
}

/**
 * Creates the sender; on an address nobody has proven yet it is PENDING and the address is mailed
 * a confirmation link (after the sender's transaction: the link names a committed sender).
 */
export async function createMessageSender(ctx: RequestContext, raw: unknown): Promise<MessageSender> {
  const team = requireTeam(ctx);
  const input = parseInput(createMessageSenderInput, raw, 'Invalid message sender');
  const { prisma, config } = ctx.services;
  const created = await runTransaction(prisma, async (tx) => {
    await lockTeamSenders(tx, team.id);
    const domain = await tx.teamMailDomain.findUnique({ where: { teamId_domain: { teamId: team.id, domain: domainOfAddress(input.emailAddress) } } });
    const onVerifiedDomain = domain?.status === 'VERIFIED';
    const verified = onVerifiedDomain || onPreverifiedDomain(config, input.emailAddress);
    const hasDefault = (await tx.messageSender.count({ where: { teamId: team.id, deliveryMethod: input.deliveryMethod, archivedAt: null, isDefault: true } })) > 0;
    const row = await tx.messageSender.create({
      data: {
        simplyId: messageSenderId.create(),
        teamId: team.id,
        name: input.name,
        deliveryMethod: input.deliveryMethod,
        emailAddress: input.emailAddress,
        // only a VERIFIED domain vouches for its senders (and a pending one stays deletable)
        domainId: onVerifiedDomain ? domain.id : null,
        isDefault: !hasDefault || input.isDefault === true,
        verificationStatus: verified ? 'VERIFIED' : 'PENDING',
        verifiedAt: verified ? new Date() : null,
      },
    });
    if (row.isDefault && hasDefault) await makeDefault(tx, row);
    return row;
  });
  if (created.verificationStatus === 'VERIFIED') return created;
  await mailConfirmation(ctx.services, created, team.name);
  return prisma.messageSender.findUniqueOrThrow({ where: { id: created.id } });
}

/**
 * Mails a new confirmation link to a PENDING sender (the previous link stops working). A verified
 * sender: 409; again within RESEND_COOLDOWN_MS of the last mail: 429 with Retry-After.
 */
export async function resendSenderVerification(ctx: RequestContext, simplyId: string): Promise<MessageSender> {
  const current = await findSender(ctx, simplyId);
  const team = requireTeam(ctx);
  if (senderIsVerified(ctx.services.config, current)) throw new SenderAlreadyVerifiedError(simplyId);
  if (!(await mailConfirmation(ctx.services, current, team.name, RESEND_COOLDOWN_MS))) {
    const now = await ctx.services.prisma.messageSender.findUnique({ where: { id: current.id } });
    if (!now || now.archivedAt) throw new NotFoundError(LABEL, simplyId);
    if (senderIsVerified(ctx.services.config, now)) throw new SenderAlreadyVerifiedError(simplyId);
    const waitMs = (now.verificationSentAt?.getTime() ?? Date.now()) + RESEND_COOLDOWN_MS - Date.now();
    throw new RateLimitError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
  return ctx.services.prisma.messageSender.findUniqueOrThrow({ where: { id: current.id } });
}

/** Renames, and/or makes the sender its channel's default (clearing the previous one). */
export async function updateMessageSender(ctx: RequestContext, simplyId: string, raw: unknown): Promise<MessageSender> {
  const current = await findSender(ctx, simplyId);
  const input = parseInput(updateMessageSenderInput, raw, 'Invalid message sender update');
  return runTransaction(ctx.services.prisma, async (tx) => {
    await lockTeamSenders(tx, current.teamId);
    const [renamed] = await tx.messageSender.updateManyAndReturn({
      where: { id: current.id, archivedAt: null },
      data: input.name !== undefined ? { name: input.name } : {},
    });
    // archived while this request waited for the lock
    if (!renamed) throw new NotFoundError(LABEL, simplyId);
    if (input.isDefault) await makeDefault(tx, renamed);
    return tx.messageSender.findUniqueOrThrow({ where: { id: current.id } });
  });
}

/** Archives the sender; if it was the default, the oldest remaining sender of its channel takes over. Again: 404. */
export async function deleteMessageSender(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const current = await findSender(ctx, simplyId);
  return runTransaction(ctx.services.prisma, async (tx) => {
    await lockTeamSenders(tx, current.teamId);
    const [archived] = await tx.messageSender.updateManyAndReturn({ where: { id: current.id, archivedAt: null }, data: { archivedAt: new Date(), isDefault: false } });
    if (!archived) throw new NotFoundError(LABEL, simplyId);
    // under the lock, the channel's state is current whatever `current` said before it was taken
    const hasDefault = await tx.messageSender.count({ where: { teamId: current.teamId, deliveryMethod: current.deliveryMethod, archivedAt: null, isDefault: true } });
    if (hasDefault === 0) {
      const next = await tx.messageSender.findFirst({ where: { teamId: current.teamId, deliveryMethod: current.deliveryMethod, archivedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      if (next) await tx.messageSender.update({ where: { id: next.id }, data: { isDefault: true } });
    }
    return true;
  });
}
