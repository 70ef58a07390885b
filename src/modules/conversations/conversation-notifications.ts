// Who is told of conversation activity, through the notifications area's one notify service
// (docs/api/conversations.md "Notifications"). The change queues a `conversations.notify` job in
// its own transaction, so nothing is lost if the process dies and the request never waits for a
// fan-out; the job writes every recipient's notification in one transaction, keyed
// (source CONVERSATION, sourceId `<kind>:<key>:<user>`) so a retried job writes nothing twice.
//
//   NEW_CONVERSATION  everyone whose inbox shows it (it starts unassigned), but its creator
//   NEW_MESSAGE       an end user's message: the assignee and the followers who may still see it
//   ASSIGNMENT        the new assignee, unless they assigned it to themselves
//   MENTION           the members an agent's internal note names with @usr-…, who may see it
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection, type JobDefinition } from '../../app/jobs.ts';
import { runTransaction } from '../../app/transaction.ts';
import { notify } from '../notifications/index.ts';
import { INBOX_ALL_FEATURE, INBOX_FEATURE, TABLE_FEATURE } from './conversation-access.ts';
import { findConversationById, type ConversationRow } from './conversations.sql.ts';
import { findMessageById } from './messages.sql.ts';
import { activeMembers, followersOf, peopleById, type MemberGrants } from './people.sql.ts';
import { previewOf } from './message-content.ts';

export const NOTIFY_CONVERSATION = 'conversations.notify';

export type NotifyKind = 'NEW_CONVERSATION' | 'NEW_MESSAGE' | 'ASSIGNMENT' | 'MENTION';

export interface NotifyJob {
  teamId: string;
  conversationId: string;
  kind: NotifyKind;
  /** what makes this notification one of its kind: the message, or the assignment's time */
  key: string;
  messageId: string | null;
  /** the person who caused it (never told of their own doing) */
  actorUserId: string | null;
  /** ASSIGNMENT and MENTION: the user simplyIds to tell */
  recipients: string[] | null;
}

/** Queues the notifications of a change on the change's own connection (they exist only if it commits). */
export async function queueNotifications(services: Services, db: pg.PoolClient, job: NotifyJob): Promise<void> {
  await services.jobs.boss.send(NOTIFY_CONVERSATION, job, { db: onConnection(db), retryLimit: 5, retryDelay: 5, retryBackoff: true });
}

/** Whether the member's inbox shows the conversation (team admins and INBOX_VIEW_ALL: all; INBOX_VIEW: own and unassigned). */
function inboxShows(member: MemberGrants, conversation: ConversationRow): boolean {
  if (member.isTeamAdmin || member.features.has(INBOX_ALL_FEATURE)) return true;
  return member.features.has(INBOX_FEATURE) && (conversation.assignedUserId === null || conversation.assignedUserId === member.userId);
}

/** Whether the member may see the conversation at all (the table's team-wide reach, or the inbox's). */
function maySee(member: MemberGrants, conversation: ConversationRow): boolean {
  return member.features.has(TABLE_FEATURE) || inboxShows(member, conversation);
}

function labelOf(c: ConversationRow): string {
  return c.subject ?? c.visitorName ?? c.visitorEmail ?? c.visitorPhone ?? 'a visitor';
}

async function deliver(services: Services, job: NotifyJob): Promise<void> {
  const teamId = BigInt(job.teamId);
  const conversation = await findConversationById(services.pool, teamId, BigInt(job.conversationId));
  if (!conversation) return;
  const message = job.messageId === null ? null : await findMessageById(services.pool, teamId, BigInt(job.messageId));
  const actor = job.actorUserId === null ? null : BigInt(job.actorUserId);

  let candidates: string[] | null;
  if (job.kind === 'NEW_CONVERSATION') candidates = null;
  else if (job.kind === 'NEW_MESSAGE') {
    const followers = await followersOf(services.pool, teamId, [conversation.id]);
    candidates = [...new Set([conversation.assignedUserSimplyId, ...followers.map((f) => f.userSimplyId)].filter((id): id is string => id !== null))];
  } else candidates = job.recipients ?? [];
  const members = [...(await activeMembers(services.pool, teamId, candidates)).values()].filter(
    (m) => m.userId !== actor && (job.kind === 'NEW_CONVERSATION' ? inboxShows(m, conversation) : maySee(m, conversation)),
  );
  if (members.length === 0) return;

  const label = labelOf(conversation);
  const preview = message ? previewOf(message.content, message.contentType) : null;
  const by = actor === null ? null : (await peopleById(services.pool, [actor])).get(actor);
  const byName = by ? [by.firstName, by.lastName].filter(Boolean).join(' ') || by.email : 'A teammate';
  const texts: Record<NotifyKind, { title: string; body: string | null }> = {
    NEW_CONVERSATION: { title: `New conversation: ${label}`, body: conversation.visitorEmail ?? conversation.visitorPhone },
    NEW_MESSAGE: { title: `New message from ${conversation.visitorName ?? conversation.visitorEmail ?? 'the visitor'}`, body: preview },
    ASSIGNMENT: { title: `Conversation assigned to you: ${label}`, body: conversation.lastMessagePreview },
    MENTION: { title: `${byName} mentioned you in ${label}`, body: preview },
  };
  const text = texts[job.kind];
  await runTransaction(services.prisma, async (tx) => {
    for (const member of members) {
      await notify(services, tx, {
        teamId,
        userId: member.userId,
        // the notification types are named as the kinds (notification-categories.ts)
        notificationType: job.kind,
        title: text.title,
        body: text.body,
        iconType: 'conversation',
        actionUrl: `/conversations/inbox/${conversation.simplyId}`,
        referenceEntityType: 'CONVERSATION',
        referenceEntityId: conversation.simplyId,
        source: 'CONVERSATION',
        sourceId: `${job.kind}:${job.key}:${member.userId}`,
      });
    }
  });
}

export function notificationJobs(services: Services): JobDefinition<NotifyJob>[] {
  return [
    {
      name: NOTIFY_CONVERSATION,
      retryLimit: 5,
      batchSize: 10,
      concurrency: 2,
      handler: async (jobs) => {
        for (const job of jobs) await deliver(services, job.data);
      },
    },
  ];
}
