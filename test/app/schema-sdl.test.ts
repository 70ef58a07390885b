// The committed schema.graphql is the reviewed contract of the GraphQL face: it must match the code.
import fs from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/main/schema.ts';

describe('schema.graphql', () => {
  it('matches the Pothos schema (run `npm run print-schema -- --write` after changing it)', () => {
    const committed = fs.readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(`${printSchema(lexicographicSortSchema(schema))}\n`).toBe(committed);
  });
});
