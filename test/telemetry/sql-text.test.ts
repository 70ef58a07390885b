// What a SQL span says about its statement: literals replaced, identifiers and placeholders kept.
import { describe, expect, it } from 'vitest';
import { sanitizeSql, statementFacts } from '../../src/app/telemetry/sql-text.ts';

describe('SQL span text', () => {
  it('replaces every literal with ? and drops comments, keeping identifiers, placeholders and casts', () => {
    expect(sanitizeSql(`SELECT "t1"."x", 'a''b', E'O\\'Brien', 42, 3.5e2, $1::int, $$body$$, $fn$ x $fn$ FROM "Team2" -- by ada@example.test`)).toBe(
      `SELECT "t1"."x", ?, ?, ?, ?, $1::int, ?, ? FROM "Team2"  `,
    );
    expect(sanitizeSql(`UPDATE x SET note = /* 555-0100 */ 'call me' WHERE id = $2`)).toBe(`UPDATE x SET note =   ? WHERE id = $2`);
    // an unterminated literal still shows nothing of its value
    expect(sanitizeSql(`SELECT 'secret`)).toBe('SELECT ?');
  });

  it('names the operation and, for a plain statement, its table', () => {
    expect(statementFacts(`SELECT "public"."User"."id" FROM "public"."User" WHERE "email" = $1`)).toMatchObject({
      operation: 'SELECT',
      table: 'public.User',
      summary: 'SELECT public.User',
    });
    expect(statementFacts(`insert into "DomainEvent" (payload) values ($1)`).summary).toBe('INSERT DomainEvent');
    expect(statementFacts(`DELETE FROM "DomainEventFailure" WHERE "resolvedAt" < $1`).summary).toBe('DELETE DomainEventFailure');
    expect(statementFacts(`SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)`).summary).toBe('SELECT');
    expect(statementFacts(`WITH x AS (SELECT 1) SELECT * FROM x`).summary).toBe('WITH');
    expect(statementFacts('BEGIN').summary).toBe('BEGIN');
  });

  it('keeps at most 4096 characters of a long statement', () => {
    const facts = statementFacts(`SELECT ${'"c", '.repeat(2000)}"d" FROM "Wide"`);
    expect(facts.text).toHaveLength(4096);
    expect(facts.text.endsWith('…')).toBe(true);
    expect(facts.table).toBe('Wide');
  });
});
