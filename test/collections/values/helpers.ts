// Shorthands for the value-layer tests: a field definition, and encode expecting success/failure.
import { expect } from 'vitest';
import { encodeValue, type FieldDef, type ValueOptions } from '../../../src/kernel/values/index.ts';

export const FIELD_ID = 'F2AB-CDEF-GHJK';
export const RECORD_A = 'ABCD-EFGH-JKMN';
export const RECORD_B = '2345-6789-PQRS';
export const RECORD_C = 'TUVW-XYZ2-3456';

export function field(dataType: string, config?: unknown, extra: Partial<FieldDef> = {}): FieldDef {
  return { dataFieldSimplyId: FIELD_ID, dataType, config, isRequired: false, ...extra };
}

/** Encodes and returns the stored value, failing the test with the codec's message otherwise. */
export function accept(dataType: string, raw: unknown, config?: unknown, options?: ValueOptions): unknown {
  const result = encodeValue(field(dataType, config), raw, options);
  if (!result.ok) expect.fail(`${dataType} refused ${JSON.stringify(raw)}: ${result.message}`);
  return result.value;
}

/** Encodes expecting a refusal and returns its message. */
export function reject(dataType: string, raw: unknown, config?: unknown, options?: ValueOptions): string {
  const result = encodeValue(field(dataType, config), raw, options);
  if (result.ok) expect.fail(`${dataType} accepted ${JSON.stringify(raw)} as ${JSON.stringify(result.value)}`);
  expect(result.message.length).toBeGreaterThan(0);
  return result.message;
}
