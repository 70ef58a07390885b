// Features that ask the model for a JSON object (conversations' replies and translations, websites'
// drafts) share the question's shape and one lenient reader of the answer: a fenced block or words
// around the object are tolerated; anything else is no answer.

/** One question: the instructions, the task, its data (serialized as JSON into the user turn) and the usage record's facts. */
export interface JsonQuestion {
  system: string;
  task: string;
  data: unknown;
  teamId: bigint;
  /** for the usage records */
  feature: string;
  maxOutputTokens: number;
}

/** The JSON object in the model's text, or null when there is none. */
export function readJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
