// Support handoffs (docs/api/team-assistant.md "Support handoffs"): a member asks that a person of
// the team take over a session. The team's support scope says whether it is offered and on which
// topics; the team admins are the responders. A handoff is stored and each active team admin is
// notified; a session has at most one OPEN handoff, so asking again answers the open one and
// notifies nobody twice.
import type { RequestContext, Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { AssistantHandoff } from '../../generated/prisma/client.ts';
import { notify } from '../notifications/index.ts';
import { requireAssistant } from './team-assistant.access.ts';
import { AssistantSupportUnavailableError } from './team-assistant.errors.ts';
import { assistantHandoffId } from './team-assistant.ids.ts';
import { handoffInput } from './team-assistant.input.ts';
import { ownSession } from './sessions.service.ts';
import { teamAssistantSettings } from './settings.service.ts';

export interface Availability {
  available: boolean;
  /** why not, when not: SUPPORT_DISABLED (the team offers none) or NO_RESPONDERS (no active team admin) */
  reason: 'SUPPORT_DISABLED' | 'NO_RESPONDERS' | null;
  topics: string[];
  responders: number;
}

export interface HandoffView {
  handoffSimplyId: string;
  sessionSimplyId: string;
  status: string;
  topic: string | null;
  note: string | null;
  createdAt: Date;
  closedAt: Date | null;
}

const handoffView = (h: AssistantHandoff, sessionSimplyId: string): HandoffView => ({
  handoffSimplyId: h.simplyId,
  sessionSimplyId,
  status: h.status,
  topic: h.topic,
  note: h.note,
  createdAt: h.createdAt,
  closedAt: h.closedAt,
});

async function respondersOf(services: Services, teamId: bigint) {
  return services.prisma.teamMembership.findMany({ where: { teamId, isActive: true, isTeamAdmin: true, user: { isActive: true } }, select: { userId: true } });
}

/** The availability, and the responders it counted (the ones a handoff notifies). */
async function availabilityOf(services: Services, teamId: bigint): Promise<{ availability: Availability; responders: { userId: bigint }[] }> {
  const [{ supportScope }, responders] = await Promise.all([teamAssistantSettings(services, teamId), respondersOf(services, teamId)]);
  const reason = !supportScope.enabled ? 'SUPPORT_DISABLED' : responders.length === 0 ? 'NO_RESPONDERS' : null;
  return { availability: { available: reason === null, reason, topics: supportScope.topics, responders: responders.length }, responders };
}

export async function supportAvailability(ctx: RequestContext): Promise<Availability> {
  return (await availabilityOf(ctx.services, requireAssistant(ctx).teamId)).availability;
}

export interface HandoffResult {
  created: boolean;
  handoff: HandoffView;
}

export async function requestHandoff(ctx: RequestContext, input: unknown): Promise<HandoffResult> {
  const { teamId, teamSimplyId } = requireAssistant(ctx);
  const body = parseInput(handoffInput, input, 'Invalid handoff');
  const session = await ownSession(ctx, body.sessionSimplyId);
  const { availability, responders } = await availabilityOf(ctx.services, teamId);
  if (!availability.available) throw new AssistantSupportUnavailableError();
  if (body.topic && availability.topics.length > 0 && !availability.topics.includes(body.topic)) {
    throw new ValidationError('Unknown support topic', [{ field: 'topic', message: `one of: ${availability.topics.join(', ')}` }]);
  }
  const open = () => ctx.services.prisma.assistantHandoff.findFirst({ where: { teamId, sessionId: session.id, status: 'OPEN' } });
  const existing = await open();
  if (existing) return { created: false, handoff: handoffView(existing, session.simplyId) };
  try {
    const handoff = await runTransaction(ctx.services.prisma, async (tx) => {
      const row = await tx.assistantHandoff.create({
        data: { simplyId: assistantHandoffId.create(), teamId, sessionId: session.id, userId: session.userId, topic: body.topic ?? null, note: body.note ?? null },
      });
      for (const { userId } of responders) {
        await notify(ctx.services, tx, {
          teamId,
          userId,
          notificationType: 'ASSIGNMENT',
          title: 'A member asks for help',
          body: body.topic ? `Assistant session "${session.title}" (topic: ${body.topic})` : `Assistant session "${session.title}"`,
          referenceEntityType: 'TEAM_AGENT_SUPPORT_HANDOFF',
          referenceEntityId: row.simplyId,
          actionUrl: `/teams/${teamSimplyId}/team-agent/handoffs/${row.simplyId}`,
          source: 'TEAM_AGENT_HANDOFF',
          sourceId: row.simplyId,
        });
      }
      return row;
    });
    return { created: true, handoff: handoffView(handoff, session.simplyId) };
  } catch (error) {
    // a concurrent request opened the session's handoff first: answer it
    const winner = await open();
    if (winner) return { created: false, handoff: handoffView(winner, session.simplyId) };
    throw error;
  }
}

export async function listHandoffs(ctx: RequestContext, sessionSimplyId: string): Promise<HandoffView[]> {
  const session = await ownSession(ctx, sessionSimplyId);
  const rows = await ctx.services.prisma.assistantHandoff.findMany({ where: { teamId: session.teamId, sessionId: session.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 100 });
  return rows.map((h) => handoffView(h, session.simplyId));
}
