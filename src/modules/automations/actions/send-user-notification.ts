// SEND_USER_NOTIFICATION: a UserNotification row for one active member of the team (the feed that
// shows it comes with notifications). The recipient is fixed (userSimplyId) or read from the
// record (a field holding a user simplyId or a member's email address).
import { decodeValue } from '../../collections/values/index.ts';

import { renderTags } from '../merge-tags.ts';
import { type ActionHandler, fieldsOf } from './action-run.ts';
import { NoRecipientError, NotAMemberError } from '../automations.errors.ts';
import { notificationId } from '../automations.ids.ts';

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
  const already = await prisma.userNotification.findFirst({ where: { teamId: run.team.id, source: 'AUTOMATION', sourceId: run.idempotencyKey }, select: { id: true } });
  if (already) return;
  await prisma.userNotification.create({
    data: {
      simplyId: notificationId.create(),
      teamId: run.team.id,
      userId: member.userId,
      title: renderTags(config.title, fields, run.record),
      body: config.body ? renderTags(config.body, fields, run.record) : null,
      data: { automationSimplyId: run.automationSimplyId, executionSimplyId: run.executionSimplyId, dataRecordSimplyId: run.record?.simplyId ?? null },
      source: 'AUTOMATION',
      sourceId: run.idempotencyKey,
    },
  });
};
