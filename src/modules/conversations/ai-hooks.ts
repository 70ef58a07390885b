// Where the conversation lifecycle hands over to the AI side, called inside the writing
// transaction (so what they queue exists exactly when the change commits):
//
//   a visitor's message lands (chat, email, relayed)   its language is detected; on an AI-handled
//                                                      conversation it is queued for the AI's reply
//   a conversation is handed to the AI                 the AI's run of replies starts over, and a
//   (assign-ai, routing's AI rule)                     visitor message still waiting for an answer
//                                                      is queued at once
import type pg from 'pg';
import { AiFeatureUnavailableError } from '../../app/ai/index.ts';
import type { Services } from '../../app/context.ts';
import { messageText } from './ai-grounding.ts';
import { queueAiReply, resetAiStreak } from './ai-reply-queue.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { detectLanguage, primaryLanguage } from './language-detect.ts';
import { big, THREAD } from './sql-helpers.ts';

/** assign-ai without a model configured: 403 AI_FEATURE_UNAVAILABLE (routing's AI rule leaves the conversation to people instead). */
export function requireAiModel(services: Services): void {
  if (!services.ai) throw new AiFeatureUnavailableError('Handing a conversation to the AI');
}

/** A visitor's message was stored in the conversation (the locked row as it was before the message). */
export async function afterVisitorMessage(services: Services, db: pg.PoolClient, conversation: ConversationRow, message: { id: bigint; content: string; contentType: string }): Promise<void> {
  const detected = detectLanguage(messageText(message));
  if (detected && (conversation.visitorLanguage === null || primaryLanguage(conversation.visitorLanguage) !== detected.language)) {
    await db.query(`UPDATE "Conversation" SET "visitorLanguage" = $3 WHERE "teamId" = $1 AND id = $2`, [conversation.teamId, conversation.id, detected.language]);
  }
  if (conversation.aiHandling && conversation.mergedIntoId === null && services.ai) await queueAiReply(services, db, conversation.teamId, conversation.id, message.id);
}

/** The conversation was just handed to the AI. */
export async function afterHandedToAi(services: Services, db: pg.PoolClient, conversation: ConversationRow): Promise<void> {
  await resetAiStreak(db, conversation.teamId, conversation.id);
  // the visitor's latest word, if nobody answered it yet, is the AI's to answer now
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT id, "authorType" FROM "ConversationMessage"
      WHERE "teamId" = $1 AND "conversationId" IN (SELECT id FROM thread) AND channel <> 'INTERNAL_NOTE'
      ORDER BY "createdAt" DESC, id DESC LIMIT 1`,
    [conversation.teamId, conversation.id],
  );
  if (rows[0]?.authorType === 'END_USER') await queueAiReply(services, db, conversation.teamId, conversation.id, big(rows[0].id), true);
}
