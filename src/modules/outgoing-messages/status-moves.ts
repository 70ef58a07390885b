// The status moves of a composed message (docs/api/outgoing-messages.md "Status moves"): the one
// transition table, the checks a move needs (approval, readiness, channel, schedule) and the move
// itself, a conditional UPDATE on the status the caller saw, so of two racing moves exactly one
// lands and the other is told where the message is now. Entering SENDING queues the resolve job in
// the same transaction; entering SCHEDULED queues the start at scheduledAt (the every-minute tick
// is the backstop), so a restart loses neither.
import type { OutgoingMessage, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import { channelAvailable } from './channel-providers.ts';
import { approvalRequired } from './message-settings.service.ts';
import {
  ApprovalRequiredError,
  DeliveryMethodUnavailableError,
  InvalidStatusTransitionError,
  NotReadyToSendError,
  SelfApprovalError,
} from './outgoing-messages.errors.ts';
import { setOutgoingMessageStatusInput, type MessageStatus } from './outgoing-messages.input.ts';
import { findMessage } from './outgoing-messages.service.ts';
import { readinessOf } from './send-readiness.ts';
import { RESOLVE_RECIPIENTS, RESOLVE_RETRIES, START_DUE, type MessageJob } from './send-pipeline.ts';

/** Where a caller may move a message from each status. SENDING → SENT / ERROR_SENDING is the platform's alone. */
export function allowedMoves(from: string, approval: boolean): MessageStatus[] {
  switch (from) {
    case 'DRAFT':
      return approval ? ['AWAITING_APPROVAL'] : ['SCHEDULED', 'SENDING'];
    case 'AWAITING_APPROVAL':
      return ['APPROVED', 'DRAFT'];
    case 'APPROVED':
      return ['SCHEDULED', 'SENDING', 'DRAFT'];
    case 'SCHEDULED':
      return ['SCHEDULED', 'SENDING', 'DRAFT'];
    default:
      return [];
  }
}

function refuse(from: string, to: MessageStatus, approval: boolean): never {
  if (from === 'DRAFT' && approval && (to === 'SCHEDULED' || to === 'SENDING')) throw new ApprovalRequiredError(to);
  const why =
    to === 'SENT' || to === 'ERROR_SENDING'
      ? 'only the platform moves a message to SENT or ERROR_SENDING, when sending ends'
      : from === 'DRAFT' && to === 'AWAITING_APPROVAL'
        ? 'the team does not require approval: schedule or send the draft directly'
        : undefined;
  throw new InvalidStatusTransitionError(from, to, allowedMoves(from, approval), why);
}

export async function setOutgoingMessageStatus(ctx: RequestContext, simplyId: string, raw: unknown): Promise<OutgoingMessage> {
  const current = await findMessage(ctx, simplyId);
  const input = parseInput(setOutgoingMessageStatusInput, raw, 'Invalid status move');
  const to = input.status;
  if (input.scheduledAt != null && to !== 'SCHEDULED') {
    throw new ValidationError('scheduledAt goes with status SCHEDULED', [{ field: 'scheduledAt', message: 'only with status SCHEDULED (change a draft\'s scheduledAt with PUT)' }]);
  }
  const approval = await approvalRequired(ctx.services, current.teamId);
  if (!allowedMoves(current.status, approval).includes(to)) refuse(current.status, to, approval);
  if (to === 'APPROVED' && current.createdById !== null && current.createdById === ctx.principal.credentialId) throw new SelfApprovalError();

  const data: Prisma.OutgoingMessageUncheckedUpdateManyInput = { status: to };
  if (to === 'SCHEDULED' || to === 'SENDING') {
    if (!channelAvailable(current.deliveryMethod)) throw new DeliveryMethodUnavailableError(current.deliveryMethod);
    if (to === 'SCHEDULED') {
      const at = input.scheduledAt != null ? new Date(input.scheduledAt) : current.scheduledAt;
      if (!at) throw new ValidationError('Scheduling needs a time', [{ field: 'scheduledAt', message: 'is required to schedule (in the body, or set on the draft)' }]);
      if (at.getTime() <= Date.now()) throw new ValidationError('scheduledAt must be in the future', [{ field: 'scheduledAt', message: 'must be in the future (to send now, move to SENDING)' }]);
      data.scheduledAt = at;
    } else data.sendStartedAt = new Date();
    const readiness = await readinessOf(ctx, current, { approval });
    if (readiness.blockers.length > 0) throw new NotReadyToSendError(readiness.blockers);
  }
  if (to === 'APPROVED') {
    data.approvedAt = new Date();
    data.approvedById = ctx.principal.credentialId;
  }
  if (to === 'DRAFT') {
    data.approvedAt = null;
    data.approvedById = null;
  }

  const { services } = ctx;
  return runTransaction(services.prisma, async (tx) => {
    const [moved] = await tx.outgoingMessage.updateManyAndReturn({ where: { id: current.id, status: current.status }, data });
    if (!moved) {
      // another move landed first: answer from where the message is now
      const now = await tx.outgoingMessage.findUniqueOrThrow({ where: { id: current.id } });
      throw new InvalidStatusTransitionError(now.status, to, allowedMoves(now.status, approval), `it became ${now.status} while this request was made: look at it again`);
    }
    const job: MessageJob = { teamId: String(moved.teamId), outgoingMessageId: String(moved.id) };
    if (to === 'SENDING') await services.jobs.sendInTransaction(tx, RESOLVE_RECIPIENTS, job, { retryLimit: RESOLVE_RETRIES, retryDelay: 5, retryBackoff: true });
    if (to === 'SCHEDULED') await services.jobs.sendInTransaction(tx, START_DUE, job, { startAfter: moved.scheduledAt!, retryLimit: 3 });
    return moved;
  });
}
