// Building blocks of hand-written SQL: a parameter list (`sql.param(value)` returns the `$n`
// placeholder), LIKE literals and byte-prefix upper bounds for range scans on `prefix`.

export class SqlParams {
  readonly values: unknown[] = [];

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}


/** LIKE pattern for a literal: `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The smallest byte string greater than every string starting with `prefix`, or null if none. */
export function prefixUpperBound(prefix: Buffer): Buffer | null {
  const bytes = Buffer.from(prefix);
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) {
      bytes[i]!++;
      return bytes.subarray(0, i + 1);
    }
  }
  return null;
}
