// BOOLEAN: JSON true/false only. Strings such as "true", "yes" or 1 are refused instead of guessed:
// every writer of this API sends JSON, and a guess ("0" is false?) would be silent data corruption.
import { defineCodec } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { describeType } from './text-guards.ts';
import { fail, ok, type Parsed } from './types.ts';

function parseBoolean(raw: unknown): Parsed<boolean> {
  return typeof raw === 'boolean' ? ok(raw) : fail(`must be true or false, not ${describeType(raw)}`);
}

export const booleanCodec = defineCodec<FieldConfigOf<'BOOLEAN'>, boolean>({
  shape: { keyKind: 'boolean', multi: false, sortable: true },
  operators: ['eq', 'ne'],
  encode: parseBoolean,
  isStored: (v): v is boolean => typeof v === 'boolean',
  key: (stored) => stored,
  text: (stored) => String(stored),
  operand: parseBoolean,
});
