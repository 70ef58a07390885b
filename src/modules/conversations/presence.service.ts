// Agent presence and capacity (docs/api/conversations.md "Presence"): GET /presence lists the
// team's agents and their state; PUT /presence sets the caller's status (and, as heartbeat, keeps
// them online: ONLINE counts only with a heartbeat in the last 60 s). Stored in PostgreSQL so every
// instance and worker agrees. A supervisor (DATA_CONVERSATION_INBOX_VIEW_ALL at edit level) may
// set another agent's status or limit by naming userSimplyId. An agent coming online (or a limit
// raised) queues routing for the team, so waiting conversations reach them.
import { hasFeature } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { IdpRequiredError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { INBOX_ALL_FEATURE, inboxVisibility, personOf } from './conversation-access.ts';
import { queueRouting } from './routing-queue.ts';
import { putPresenceInput } from './routing.input.ts';
import { teamAgents, type AgentRow } from './routing-people.sql.ts';

export type { AgentRow };

/** The status an agent shows: ONLINE only with a fresh heartbeat (a stale ONLINE reads OFFLINE). */
export function shownStatus(a: AgentRow): string {
  if (a.status === 'ONLINE') return a.online ? 'ONLINE' : 'OFFLINE';
  return a.status;
}

/** GET /presence: the team's agents (members who can work conversations) and their presence. */
export async function listPresence(ctx: RequestContext): Promise<AgentRow[]> {
  const team = requireTeam(ctx);
  inboxVisibility(ctx, 'VIEW');
  return teamAgents(ctx.services.pool, team.id);
}

/** GET /assignable-team-users: the same agents with their load and limit (who can take more now: `available`). */
export async function assignableTeamUsers(ctx: RequestContext): Promise<AgentRow[]> {
  return listPresence(ctx);
}

export async function putPresence(ctx: RequestContext, raw: unknown): Promise<AgentRow> {
  const team = requireTeam(ctx);
  const input = parseInput(putPresenceInput, raw, 'Invalid presence');
  inboxVisibility(ctx, 'VIEW');
  const person = personOf(ctx);
  let userId: bigint;
  if (input.userSimplyId !== undefined) {
    const found = (await teamAgents(ctx.services.pool, team.id)).find((a) => a.userSimplyId === input.userSimplyId);
    if (!found) throw new ValidationError('Invalid presence', [{ field: 'userSimplyId', message: 'is not an active member of this team with a conversation permission' }]);
    userId = found.userId;
  } else {
    if (person === null) throw new IdpRequiredError('Presence belongs to a person: sign in, or name the agent with userSimplyId (supervisors)');
    userId = person;
  }
  const self = userId === person;
  if ((!self || input.maxOpenConversations !== undefined) && !hasFeature(ctx.principal, INBOX_ALL_FEATURE, 'EDIT')) {
    throw new PermissionDeniedError(`Setting another agent's presence, or a limit, needs the ${INBOX_ALL_FEATURE} feature permission at edit level`);
  }
  if (input.status === undefined && input.maxOpenConversations === undefined && !self) {
    throw new ValidationError('Invalid presence', [{ field: 'status', message: 'name a status or maxOpenConversations for another agent' }]);
  }
  // the agent's own PUT is a heartbeat; a supervisor's sets the status (and a heartbeat with it, so ONLINE shows at once)
  const heartbeat = self || input.status !== undefined;
  await inTransaction(ctx.services.pool, async (db) => {
    await db.query(
      `INSERT INTO "ConversationAgentPresence" ("teamId", "userId", status, "lastHeartbeatAt", "maxOpenConversations", "updatedAt")
       VALUES ($1, $2, coalesce($3, 'ONLINE'), CASE WHEN $4 THEN now() END, $5, now())
       ON CONFLICT ("teamId", "userId") DO UPDATE SET
         status = coalesce($3, "ConversationAgentPresence".status),
         "lastHeartbeatAt" = CASE WHEN $4 THEN now() ELSE "ConversationAgentPresence"."lastHeartbeatAt" END,
         "maxOpenConversations" = CASE WHEN $6 THEN $5 ELSE "ConversationAgentPresence"."maxOpenConversations" END,
         "updatedAt" = now()`,
      [team.id, userId, input.status ?? null, heartbeat, input.maxOpenConversations ?? null, input.maxOpenConversations !== undefined],
    );
    const status = (await db.query(`SELECT status FROM "ConversationAgentPresence" WHERE "teamId" = $1 AND "userId" = $2`, [team.id, userId])).rows[0]?.status;
    if (status === 'ONLINE') await queueRouting(ctx.services, db, team.id);
  });
  const agent = (await teamAgents(ctx.services.pool, team.id, { userIds: [userId] }))[0];
  if (!agent) throw new NotFoundError('Agent', input.userSimplyId ?? String(userId));
  return agent;
}
