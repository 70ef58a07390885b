// Content gaps (docs/api/conversations.md "Content gaps"): what visitors asked that the AI could
// not answer (it handed back for low confidence, or said it lacks the information), counted per
// normalized question, so the team sees what its canned responses and records are missing. The
// list reads only the tally; it is analytics: DATA_CONVERSATIONS_VIEW (the schema's tier) and the
// team-wide inbox view (DATA_CONVERSATION_INBOX_VIEW_ALL), since the samples come from any
// conversation of the team.
import type pg from 'pg';
import { hasFeature } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { PermissionDeniedError } from '../../app/errors.ts';
import { paginationOf, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { AI_LIMITS, contentGapsInput } from './ai-input.ts';
import { INBOX_ALL_FEATURE } from './conversation-access.ts';
import { contentGapPage, countContentGap, countContentGaps, type ContentGapRow } from './content-gaps.sql.ts';

export type { ContentGapRow };

/** words that say nothing about what was asked, in the languages visitors most often greet in */
const FILLER = new Set(
  'hi hello hey dear please pls plz thanks thank thx ok okay so hallo guten tag bitte danke bonjour salut merci svp hola buenas gracias por favor ola olá obrigado obrigada ciao salve grazie prego hoi dag alstublieft dank je'.split(' '),
);
/** words of a question the key keeps */
const KEY_WORDS = 24;
/** characters of a sample question kept */
const SAMPLE_CHARACTERS = 500;

/** The question as a key: lower case, accents and punctuation gone, filler words dropped; null when nothing is left. */
export function questionKeyOf(question: string): string | null {
  const words = question
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !FILLER.has(w));
  return words.length ? words.slice(0, KEY_WORDS).join(' ') : null;
}

/** Counts one unanswered question (inside the AI job's final transaction). */
export async function recordContentGap(db: pg.PoolClient, g: { teamId: bigint; question: string; conversationSimplyId: string; language: string | null }): Promise<void> {
  const sample = [...g.question.replace(/\s+/g, ' ').trim()].slice(0, SAMPLE_CHARACTERS).join('');
  const questionKey = questionKeyOf(sample);
  if (!questionKey) return;
  await countContentGap(db, { teamId: g.teamId, questionKey, sampleQuestion: sample, conversationSimplyId: g.conversationSimplyId, language: g.language });
}

/** GET /v1/conversations/analytics/content-gaps?limit&offset&since: most asked first. */
export async function listContentGaps(ctx: RequestContext, raw: unknown): Promise<Page<ContentGapRow>> {
  const team = requireTeam(ctx);
  // a permission is refused before the input is looked at, as the tier's own are
  if (!hasFeature(ctx.principal, INBOX_ALL_FEATURE, 'VIEW')) {
    throw new PermissionDeniedError(`Conversation analytics need the team-wide inbox view (${INBOX_ALL_FEATURE}) besides DATA_CONVERSATIONS_VIEW`);
  }
  const input = parseInput(contentGapsInput, raw ?? {}, 'Invalid content gap parameters');
  const paging = parsePaging(input, { defaultLimit: AI_LIMITS.contentGapsDefaultLimit, maxLimit: AI_LIMITS.contentGapsMaxLimit });
  const since = input.since ? new Date(input.since) : null;
  const nodes = await contentGapPage(ctx.services.pool, team.id, since, paging);
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => countContentGaps(ctx.services.pool, team.id, since)) };
}
