// SEND_USER_NOTIFICATION: a WORKFLOW notification for one active member of the team, through the
// notify service (feed, realtime event and push). The recipient is fixed (userSimplyId) or read from the
// record (a field holding a user simplyId or a member's email address).
import { decodeValue } from '../../../kernel/index.ts';

import { renderTemplate } from '../../merge-tags/index.ts';
import { type ActionHandler, fieldsOf } from './action-run.ts';
import { NoRecipientError, NotAMemberError } from '../automations.errors.ts';
import { notify } from '../../notifications/index.ts';
import { runTransaction } from '../../../app/transaction.ts';

export const sendUserNotification: ActionHandler = async (run) => {
  const config = run.config as { userSimplyId?: string; toUserFieldSimplyId?: string; title: string; body?: string };
  const { prisma } = run.services;
  const fields = fieldsOf(run);
  let who = config.userSimplyId ?? null;
  if (!who && config.toUserFieldSimplyId) {
    const field = fields.find((f) => f.dataFieldSimplyId === config.toUserFieldSimplyId);
    const value = field && run.record ? decodeValue(field, run.record.values[field.dataFieldSimplyId]) : null;
    who = typeof value === 'string' && value.trim() ? value.trim() : null;
    if (!who) throw new NoRecipientError(`The record has no user in ${config.toUserFieldSimplyId}`);
  }
  const member = await prisma.teamMembership.findFirst({
    where: { teamId: run.team.id, isActive: true, user: who!.startsWith('usr-') ? { simplyId: who! } : { email: { equals: who!, mode: 'insensitive' } } },
    select: { userId: true },
  });
  if (!member) throw new NotAMemberError(String(who));
  await runTransaction(prisma, (tx) =>
    notify(run.services, tx, {
      teamId: run.team.id,
      userId: member.userId,
      notificationType: 'WORKFLOW',
      title: renderTemplate(config.title, { fields, record: run.record }),
      body: config.body ? renderTemplate(config.body, { fields, record: run.record }) : null,
      actionUrl: run.record ? `/data-records/${run.record.simplyId}` : `/automations/${run.automationSimplyId}`,
      referenceEntityType: run.record ? 'DATA_RECORD' : 'AUTOMATION',
      referenceEntityId: run.record?.simplyId ?? run.automationSimplyId,
      source: 'AUTOMATION',
      // one notification per execution, action and record, however often the action is retried
      sourceId: run.idempotencyKey,
    }),
  );
};
