// Checks every user-supplied string goes through before it is stored. PostgreSQL refuses NUL in
// text and jsonb, lone surrogates cannot be encoded as UTF-8, and invisible control characters make
// equal-looking values compare unequal, so they are rejected here rather than failing in storage.

// C0 controls except tab, line feed and carriage return; DEL.
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Single-line values (address parts, emails, ids...) also refuse line breaks and tabs.
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/;

/** Length in code points: what a person counts, unlike UTF-16 `length`. */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Returns a reason when `value` cannot be stored as text, else null. */
export function textProblem(value: string, { singleLine = false } = {}): string | null {
  if (!value.isWellFormed()) return 'contains an unpaired surrogate (invalid Unicode)';
  if (FORBIDDEN_CONTROLS.test(value)) return 'contains control characters';
  if (singleLine && LINE_BREAKS.test(value)) return 'must be a single line';
  return null;
}

/** NFC so that "é" typed two ways is stored one way; CRLF/CR become LF. */
export function normalizeText(value: string): string {
  return value.normalize('NFC').replace(/\r\n?/g, '\n');
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
