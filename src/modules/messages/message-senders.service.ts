// Who a team's messages come from. EMAIL senders only, each an address of a VERIFIED domain of
// the team. Each channel has exactly one default while it has any active sender: the first one
// becomes it, making another the default clears the old one, archiving the default hands it to the
// oldest remaining sender. Those moves take one advisory lock per team (messageSenders), so
// concurrent writers cannot leave two defaults or none. docs/api/messages.md "Senders and mail domains".
import type { MessageSender } from '../../generated/prisma/client.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { RequestContext } from '../../app/context.ts';
import { byCreation, paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { createMessageSenderInput, domainOfAddress, updateMessageSenderInput } from './message-senders.input.ts';
import { DELIVERY_METHODS } from './message-templates.input.ts';
import { messageSenderId } from './messages.ids.ts';

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

function unverified(address: string): ValidationError {
  return new ValidationError('The sender address must belong to a verified mail domain of the team', [
    { field: 'emailAddress', message: `the domain ${domainOfAddress(address)} must be a verified mail domain of the team (POST /v1/message-senders/domains, then .../verify)` },
  ]);
}

/** Makes `sender` its channel's only default (within the caller's transaction and lock). */
async function makeDefault(tx: Tx, sender: Pick<MessageSender, 'id' | 'teamId' | 'deliveryMethod'>): Promise<void> {
  await tx.messageSender.updateMany({ where: { teamId: sender.teamId, deliveryMethod: sender.deliveryMethod, isDefault: true, NOT: { id: sender.id } }, data: { isDefault: false } });
  await tx.messageSender.updateMany({ where: { id: sender.id, isDefault: false }, data: { isDefault: true } });
}

export async function createMessageSender(ctx: RequestContext, raw: unknown): Promise<MessageSender> {
  const team = requireTeam(ctx);
  const input = parseInput(createMessageSenderInput, raw, 'Invalid message sender');
  return runTransaction(ctx.services.prisma, async (tx) => {
    await lockTeamSenders(tx, team.id);
    const domain = await tx.teamMailDomain.findUnique({ where: { teamId_domain: { teamId: team.id, domain: domainOfAddress(input.emailAddress) } } });
    if (!domain || domain.status !== 'VERIFIED') throw unverified(input.emailAddress);
    const hasDefault = (await tx.messageSender.count({ where: { teamId: team.id, deliveryMethod: input.deliveryMethod, archivedAt: null, isDefault: true } })) > 0;
    const created = await tx.messageSender.create({
      data: {
        simplyId: messageSenderId.create(),
        teamId: team.id,
        name: input.name,
        deliveryMethod: input.deliveryMethod,
        emailAddress: input.emailAddress,
        domainId: domain.id,
        isDefault: !hasDefault || input.isDefault === true,
      },
    });
    if (created.isDefault && hasDefault) await makeDefault(tx, created);
    return created;
  });
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
