// The model the assistant asks in this section: the test suite's local Chat Completions server
// (test/support/model-server.ts), answering every request after the same fixed delay, so that what
// varies between runs is the platform. Each question carries a tag; the script answers a question
// with as many count_data_records steps as it was given, then with text, and stamps when each
// request of the tag arrived (in the bench process's wall clock, which the POSTs are stamped in too).
import { startModelServer, type ChatCompletionBody } from '../../../test/support/model-server.ts';
import { wallClockMs } from '../events/stats.ts';

/** how long the model takes over every answer */
export const MODEL_DELAY_MS = 200;

const TAG = /\[bench ([\w-]+)\]/;

export interface ScriptedModel {
  /** AI_BASE_URL for the platform */
  baseUrl: string;
  /** The member's question for `tag`: `toolSteps` steps of count_data_records, then a reply. */
  question(tag: string, toolSteps: number): string;
  /** wall-clock ms at which each model request of `tag` arrived, in order */
  arrivals(tag: string): readonly number[];
  /** the arrival of the first model request of `tag` (rejects after `timeoutMs`) */
  firstArrival(tag: string, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

/** the tag of the member's question (only the member's messages are searched: tool output could echo anything) */
function tagOf(body: ChatCompletionBody): string | null {
  for (const message of body.messages) {
    if (message.role !== 'user') continue;
    const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    const found = TAG.exec(text);
    if (found) return found[1]!;
  }
  return null;
}

export async function startScriptedModel(collectionSimplyId: () => string): Promise<ScriptedModel> {
  const server = await startModelServer();
  const toolSteps = new Map<string, number>();
  const arrivals = new Map<string, number[]>();
  const waiting = new Map<string, (at: number) => void>();
  server.otherwise((body) => {
    // stamped first: the reply function runs as soon as the request's body has arrived
    const at = wallClockMs();
    const tag = tagOf(body);
    if (tag === null) return { text: 'No question of the bench.', delayMs: MODEL_DELAY_MS };
    const seen = arrivals.get(tag) ?? [];
    seen.push(at);
    arrivals.set(tag, seen);
    waiting.get(tag)?.(at);
    waiting.delete(tag);
    const stepsTaken = body.messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length;
    if (stepsTaken < (toolSteps.get(tag) ?? 0)) {
      return { toolCalls: [{ name: 'count_data_records', arguments: { dataCollectionSimplyId: collectionSimplyId() } }], delayMs: MODEL_DELAY_MS };
    }
    return { text: `Answered ${tag} after ${stepsTaken} tool steps.`, delayMs: MODEL_DELAY_MS };
  });
  return {
    baseUrl: server.baseUrl,
    question: (tag, steps) => {
      toolSteps.set(tag, steps);
      return `[bench ${tag}] How many people are in the collection?`;
    },
    arrivals: (tag) => arrivals.get(tag) ?? [],
    firstArrival: (tag, timeoutMs) => {
      const known = arrivals.get(tag)?.[0];
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(tag);
          reject(new Error(`no model request for ${tag} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(tag, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    close: () => server.close(),
  };
}
