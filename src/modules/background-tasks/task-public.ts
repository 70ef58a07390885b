// What of a task's progress, result and error context may be shown: plain JSON values, without
// internal storage, AI, render or user identifiers (Document 3 §2.2). Applied when the values are
// stored, so no read path can leak them.
const HIDDEN_KEY = /(^id$|userid$|teamid$|storage|bucket|objectkey|^key$|render|prompt|model|internal|token|secret|password|path$)/i;
/** object keys of the storage (teams/<team>/objects|variants|exports/…) and local paths */
const HIDDEN_VALUE = /^(teams|uploads|variants|exports)\/|^\/(tmp|var|home|work|srv)\//;
const REDACTED = '[redacted]';
const MAX_DEPTH = 6;
const MAX_STRING = 2000;

export function publicValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return HIDDEN_VALUE.test(value) ? REDACTED : value.slice(0, MAX_STRING);
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => publicValue(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined || HIDDEN_KEY.test(key)) continue;
      out[key] = publicValue(v, depth + 1);
    }
    return out;
  }
  return null;
}

export function publicObject(value: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return (publicValue(value ?? {}) ?? {}) as Record<string, unknown>;
}
