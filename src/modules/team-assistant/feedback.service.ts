// A member's rating of an assistant reply (Document 2 §4.9 rule 5): one per reply and member; a
// second rating replaces the first and keeps its simplyId. Only the caller's own assistant replies
// in their own sessions (archived ones too) can be rated; anything else is TEAM_AGENT_MESSAGE_NOT_FOUND.
import type { RequestContext } from '../../app/context.ts';
import type { AssistantFeedback } from '../../generated/prisma/client.ts';
import { parseInput } from '../../app/validate.ts';
import { feedbackInput } from './team-assistant.input.ts';
import { requireAssistant } from './team-assistant.access.ts';
import { AssistantMessageNotFoundError } from './team-assistant.errors.ts';
import { assistantFeedbackId, assistantMessageId } from './team-assistant.ids.ts';
import { feedbackView, type FeedbackView } from './assistant-views.ts';


export interface FeedbackResult {
  created: boolean;
  feedback: FeedbackView;
}

export async function rateMessage(ctx: RequestContext, messageSimplyId: string, input: unknown): Promise<FeedbackResult> {
  const { teamId, userId } = requireAssistant(ctx);
  const { rating, comment } = parseInput(feedbackInput, input, 'Invalid feedback');
  if (!assistantMessageId.is(messageSimplyId)) throw new AssistantMessageNotFoundError();
  const { prisma } = ctx.services;
  const message = await prisma.assistantMessage.findUnique({ where: { teamId_simplyId: { teamId, simplyId: messageSimplyId } } });
  const session = message && (await prisma.assistantSession.findUnique({ where: { teamId_id: { teamId, id: message.sessionId } } }));
  if (!message || message.role !== 'ASSISTANT' || !session || session.userId !== userId) throw new AssistantMessageNotFoundError();
  const text = comment?.trim() ? comment : null;
  // one statement: two first ratings at once make one row, and exactly one of them says created
  const [row] = await prisma.$queryRaw<(AssistantFeedback & { created: boolean })[]>`
    INSERT INTO "AssistantFeedback" ("simplyId", "teamId", "messageId", "userId", rating, comment, "updatedAt")
    VALUES (${assistantFeedbackId.create()}, ${teamId}, ${message.id}, ${userId}, ${rating}, ${text}, now())
    ON CONFLICT ("teamId", "messageId", "userId") DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, "updatedAt" = now()
    RETURNING "simplyId", "teamId", "messageId", "userId", rating, comment, "createdAt", "updatedAt", id, (xmax = 0) AS created`;
  return { created: row!.created, feedback: feedbackView(row!) };
}
