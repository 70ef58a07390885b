// One question to the platform's model for the conversations' AI features, and the JSON it must
// answer with, read leniently (a fenced block, words around it). The visitor's messages are data
// inside the question, never instructions: every system prompt says so, and nothing the model
// answers is run, only read into the fixed shape each feature expects.
import type { AiProvider } from '../../app/ai/index.ts';
import { AiError, type JsonQuestion, readJsonObject } from '../../app/ai/index.ts';

export type ModelQuestion = JsonQuestion;
import type { Logger } from 'pino';

/** The model's answer as a JSON object; AiError on a failed step, or 'bad_response' when no object can be read. */
export async function askModelForJson(ai: AiProvider, logger: Logger, q: ModelQuestion): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const step = await ai.complete({
      system: q.system,
      messages: [{ role: 'user', content: `${q.task}\n\n${JSON.stringify(q.data)}` }],
      maxOutputTokens: q.maxOutputTokens,
      budget: ai.runBudget(),
      teamId: q.teamId,
      feature: q.feature,
    });
    text = step.text;
  } catch (error) {
    if (error instanceof AiError) logger.warn({ ai: error.logFields(), feature: q.feature }, 'conversation AI: model step failed');
    throw error;
  }
  const parsed = readJsonObject(text);
  if (!parsed) {
    logger.warn({ feature: q.feature, chars: text.length }, 'conversation AI: the model did not answer JSON');
    throw new AiError('bad_response');
  }
  return parsed;
}

/** Text for a person to read: control characters out (line breaks kept), trimmed, at most `max` characters; '' when none. */
export function cleanText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const clean = value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
  return [...clean].slice(0, max).join('');
}

/** A confidence the model gave, 0-1; anything else counts as none (0). */
export function confidenceOf(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}

const words = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** How many words in a row a text for the visitor may share with an internal note before it counts as quoting it. */
export const NOTE_QUOTE_WORDS = 6;

/**
 * Whether `text` quotes one of the internal notes: shares a run of NOTE_QUOTE_WORDS words with it
 * (a shorter note of at least three words: the whole note). Notes may inform a suggestion; their
 * words must not reach the visitor.
 */
export function quotesNote(text: string, notes: readonly string[]): boolean {
  const said = ` ${words(text).join(' ')} `;
  for (const note of notes) {
    const w = words(note);
    if (w.length < 3) continue;
    const run = Math.min(NOTE_QUOTE_WORDS, w.length);
    for (let i = 0; i + run <= w.length; i++) {
      if (said.includes(` ${w.slice(i, i + run).join(' ')} `)) return true;
    }
  }
  return false;
}
