// One question to the platform's model for the websites' AI features (drafts and translations),
// and the JSON object it must answer with, read leniently (a fenced block, words around it). What
// the site holds and what the editor asks for are data inside the question, never instructions;
// nothing the model answers is run or stored as it is: each feature reads it into a fixed shape
// and checks it with the design rules.
import { AiError, AiFeatureUnavailableError, AiModelFailedError, type AiProvider, type JsonQuestion, readJsonObject } from '../../app/ai/index.ts';

export type ModelQuestion = JsonQuestion;
import type { RequestContext } from '../../app/context.ts';
import { ApiError, type ErrorDetail } from '../../app/errors.ts';

/** The model answered, but not with what the feature asked for (after the repair attempt). */
export class DraftRejectedError extends ApiError {
  constructor(what: string, details: ErrorDetail[]) {
    super(424, 'AI_MODEL_ERROR', `The AI model’s ${what} did not meet the design rules, so nothing is offered. Try again, or change the brief.`, { details: details.slice(0, 20) });
  }
}

export function requireModel(ctx: RequestContext, purpose: string): AiProvider {
  const ai = ctx.services.ai;
  if (!ai) throw new AiFeatureUnavailableError(purpose);
  return ai;
}

/** what a feature made of an answer: its value, or the problems to send back */
export type ReadOutcome<T> = { value: T; problems?: undefined } | { problems: ErrorDetail[]; value?: undefined };

/**
 * Asks the model and reads the JSON object it answers with; `read` turns it into the feature's
 * shape or the problems found. An answer that is not JSON or does not fit is sent back once with
 * the problems (the model usually corrects itself); a second miss is 424 with them.
 * A failed model step is 424 AI_MODEL_ERROR with its fixed sentence.
 */
export async function askModel<T>(ctx: RequestContext, ai: AiProvider, q: ModelQuestion, what: string, read: (answer: Record<string, unknown>) => ReadOutcome<T>): Promise<T> {
  const budget = ai.runBudget();
  const messages: { role: 'user' | 'assistant'; content: string }[] = [{ role: 'user', content: `${q.task}\n\n${JSON.stringify(q.data)}` }];
  let problems: ErrorDetail[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    let text: string;
    try {
      const step = await ai.complete({ system: q.system, messages, maxOutputTokens: q.maxOutputTokens, budget, teamId: q.teamId, feature: q.feature });
      text = step.text;
    } catch (error) {
      if (error instanceof AiError) {
        ctx.logger.warn({ ai: error.logFields(), feature: q.feature }, 'website AI: model step failed');
        throw new AiModelFailedError(error);
      }
      throw error;
    }
    const parsed = readJsonObject(text);
    const outcome: ReadOutcome<T> = parsed ? read(parsed) : { problems: [{ field: 'answer', message: 'is not a JSON object' }] };
    if (outcome.problems === undefined) return outcome.value;
    problems = outcome.problems;
    ctx.logger.warn({ feature: q.feature, attempt, problems: problems.slice(0, 5) }, 'website AI: the model’s answer did not fit');
    messages.push({ role: 'assistant', content: text.slice(0, 20_000) });
    messages.push({ role: 'user', content: `That answer cannot be used: ${problems.slice(0, 10).map((p) => `${p.field ?? ''} ${p.message}`.trim()).join('; ')}. Answer again with the JSON object only, following the rules.` });
  }
  throw new DraftRejectedError(what, problems);
}
