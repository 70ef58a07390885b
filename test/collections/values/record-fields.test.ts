// encodeRecordFields / decodeRecordFields and the helpers a record route builds its 400 with.
import { describe, expect, it } from 'vitest';
import {
  decodeRecordFields,
  decodeValue,
  encodeRecordFields,
  encodeValue,
  type FieldDef,
  referenceErrors,
  toValidationError,
} from '../../../src/kernel/values/index.ts';
import { field, RECORD_A, RECORD_B, RECORD_C } from './helpers.ts';

const NAME = 'NAME-2222-AAAA';
const AGE = 'AGE2-2222-AAAA';
const EMAIL = 'MAIL-2222-AAAA';
const ORG = 'ORG2-2222-AAAA';
const TEAM = 'TEAM-2222-AAAA';
const PHOTO = 'PHTO-2222-AAAA';
const DOCS = 'DOCS-2222-AAAA';

const FIELDS: FieldDef[] = [
  { dataFieldSimplyId: NAME, dataType: 'PLAIN_TEXT', isRequired: true, config: { maxLength: 20 } },
  { dataFieldSimplyId: AGE, dataType: 'NUMBER', isRequired: false, config: { min: 0 } },
  { dataFieldSimplyId: EMAIL, dataType: 'EMAIL_ADDRESS', isRequired: true },
  { dataFieldSimplyId: ORG, dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: 'RGS2-2222-AAAA' } },
  { dataFieldSimplyId: TEAM, dataType: 'MULTI_DATA_RECORD' },
  { dataFieldSimplyId: PHOTO, dataType: 'SINGLE_IMAGE' },
  { dataFieldSimplyId: DOCS, dataType: 'MULTI_FILE' },
];

describe('encodeRecordFields on create', () => {
  it('normalizes the supplied values keyed by field simplyId', () => {
    const result = encodeRecordFields(FIELDS, { [NAME]: 'Ada', [AGE]: '36', [EMAIL]: 'Ada@Example.COM' }, { mode: 'create' });
    expect(result).toEqual({
      ok: true,
      values: { [NAME]: 'Ada', [AGE]: 36, [EMAIL]: 'Ada@example.com' },
      unknownKeys: [],
      missingRequired: [],
      errors: [],
      references: { records: [], files: [], images: [] },
      referencedBy: {},
    });
  });

  it('skips unknown keys (labels, column names, other ids) and lists them', () => {
    // as parsed from a JSON body, where "__proto__" is an ordinary own key
    const input: unknown = JSON.parse(JSON.stringify({ [NAME]: 'Ada', [EMAIL]: 'a@example.com', Name: 'x', first_name: 'y' }).replace('{', '{"__proto__":{"polluted":true},'));
    const result = encodeRecordFields(FIELDS, input, { mode: 'create' });
    expect(result.ok).toBe(true);
    expect(result.unknownKeys).toEqual(['__proto__', 'Name', 'first_name']);
    expect(Object.keys(result.values)).toEqual([NAME, EMAIL]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('lists required fields that are missing, null or blank', () => {
    const result = encodeRecordFields(FIELDS, { [NAME]: '   ', [AGE]: 3 }, { mode: 'create' });
    expect(result.ok).toBe(false);
    expect(result.missingRequired).toEqual([NAME, EMAIL]);
    expect(result.errors).toEqual([]);
  });

  it('collects every invalid value, not only the first', () => {
    const result = encodeRecordFields(
      FIELDS,
      { [NAME]: 'x'.repeat(21), [AGE]: -1, [EMAIL]: 'nope', [ORG]: 'not-an-id', [TEAM]: [RECORD_A, RECORD_A] },
      { mode: 'create' },
    );
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      { field: NAME, dataType: 'PLAIN_TEXT', message: 'must be at most 20 characters' },
      { field: AGE, dataType: 'NUMBER', message: 'must be at least 0' },
      { field: EMAIL, dataType: 'EMAIL_ADDRESS', message: 'must look like name@example.com' },
      { field: ORG, dataType: 'SINGLE_DATA_RECORD', message: 'must be a record simplyId (XXXX-XXXX-XXXX)' },
      { field: TEAM, dataType: 'MULTI_DATA_RECORD', message: `item 1 repeats ${RECORD_A}` },
    ]);
  });

  it('returns the union of references, each once, and which field holds them', () => {
    const result = encodeRecordFields(
      FIELDS,
      {
        [NAME]: 'Ada',
        [EMAIL]: 'a@example.com',
        [ORG]: RECORD_A,
        [TEAM]: [RECORD_B, RECORD_A, RECORD_C],
        [PHOTO]: 'file-ABCD-EFGH-JKMN',
        [DOCS]: ['file-ABCD-EFGH-JKMN', 'file-2345-6789-PQRS'],
      },
      { mode: 'create' },
    );
    expect(result.ok).toBe(true);
    expect(result.references).toEqual({
      records: [RECORD_A, RECORD_B, RECORD_C],
      files: ['file-ABCD-EFGH-JKMN', 'file-2345-6789-PQRS'],
      images: ['file-ABCD-EFGH-JKMN'],
    });
    expect(result.referencedBy).toEqual({
      [ORG]: { records: [RECORD_A], files: [], images: [] },
      [TEAM]: { records: [RECORD_B, RECORD_A, RECORD_C], files: [], images: [] },
      [PHOTO]: { records: [], files: [], images: ['file-ABCD-EFGH-JKMN'] },
      [DOCS]: { records: [], files: ['file-ABCD-EFGH-JKMN', 'file-2345-6789-PQRS'], images: [] },
    });
  });

  it('refuses a fields input that is not an object; undefined is an empty object', () => {
    for (const input of [null, [], 'x', 5]) {
      const result = encodeRecordFields(FIELDS, input, { mode: 'create' });
      expect(result.ok).toBe(false);
      expect(result.errors).toEqual([{ field: null, message: 'must be an object keyed by field simplyId' }]);
    }
    expect(encodeRecordFields(FIELDS, undefined, { mode: 'create' }).missingRequired).toEqual([NAME, EMAIL]);
  });

  it('passes the file-id predicate through', () => {
    const result = encodeRecordFields(FIELDS, { [NAME]: 'A', [EMAIL]: 'a@example.com', [PHOTO]: 'img1' }, { mode: 'create', isFileId: (v) => v === 'img1' });
    expect(result.ok).toBe(true);
    expect(result.references.images).toEqual(['img1']);
  });

  it('reports a field of an unknown type only when a value is supplied for it', () => {
    const fields = [...FIELDS, { dataFieldSimplyId: 'CLR2-2222-AAAA', dataType: 'COLOR' }];
    expect(encodeRecordFields(fields, { [NAME]: 'A', [EMAIL]: 'a@example.com' }, { mode: 'create' }).ok).toBe(true);
    expect(encodeRecordFields(fields, { [NAME]: 'A', [EMAIL]: 'a@example.com', 'CLR2-2222-AAAA': '#fff' }, { mode: 'create' }).errors).toEqual([
      { field: 'CLR2-2222-AAAA', dataType: 'COLOR', message: 'has the unsupported data type COLOR' },
    ]);
  });
});

describe('encodeRecordFields on update (PATCH and PUT merge alike)', () => {
  it('writes only the supplied fields; required fields may be left out', () => {
    const result = encodeRecordFields(FIELDS, { [AGE]: 40 }, { mode: 'update' });
    expect(result).toMatchObject({ ok: true, values: { [AGE]: 40 }, missingRequired: [] });
  });

  it('clears optional fields with null (or a blank string)', () => {
    const result = encodeRecordFields(FIELDS, { [AGE]: null, [ORG]: '', [TEAM]: [] }, { mode: 'update' });
    expect(result).toMatchObject({ ok: true, values: { [AGE]: null, [ORG]: null, [TEAM]: null } });
    expect(result.references).toEqual({ records: [], files: [], images: [] });
  });

  it('refuses clearing a required field', () => {
    const result = encodeRecordFields(FIELDS, { [NAME]: null, [EMAIL]: '' }, { mode: 'update' });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      { field: NAME, dataType: 'PLAIN_TEXT', message: 'is required and cannot be cleared' },
      { field: EMAIL, dataType: 'EMAIL_ADDRESS', message: 'is required and cannot be cleared' },
    ]);
    expect(result.missingRequired).toEqual([]);
  });

  it('treats an explicit undefined as not supplied', () => {
    expect(encodeRecordFields(FIELDS, { [NAME]: undefined }, { mode: 'update' })).toMatchObject({ ok: true, values: {} });
  });
});

describe('encodeValue', () => {
  it('distinguishes not supplied (undefined) from clearing (null)', () => {
    expect(encodeValue(field('NUMBER'), undefined)).toEqual({ ok: true, value: undefined, references: { records: [], files: [], images: [] } });
    expect(encodeValue(field('NUMBER'), null)).toEqual({ ok: true, value: null, references: { records: [], files: [], images: [] } });
    expect(encodeValue(field('NUMBER'), '  ')).toMatchObject({ ok: true, value: null });
  });

  it('refuses empty values for a required field', () => {
    expect(encodeValue(field('NUMBER', undefined, { isRequired: true }), null)).toEqual({ ok: false, message: 'is required and cannot be empty' });
    expect(encodeValue(field('MULTI_FILE', undefined, { isRequired: true }), [])).toEqual({ ok: false, message: 'is required and cannot be empty' });
    expect(encodeValue(field('NUMBER', undefined, { isRequired: true }), undefined)).toMatchObject({ ok: true, value: undefined });
  });
});

describe('referenceErrors and toValidationError', () => {
  it('turns the caller verdict on ids into per-field errors', () => {
    const result = encodeRecordFields(FIELDS, { [ORG]: RECORD_A, [TEAM]: [RECORD_B, RECORD_C], [PHOTO]: 'file-ABCD-EFGH-JKMN' }, { mode: 'update' });
    const found = new Set([RECORD_A, RECORD_B]);
    const errors = referenceErrors(result.referencedBy, (kind, id) => {
      if (kind === 'records') return found.has(id) ? null : 'was not found';
      if (kind === 'images') return 'is not an image';
      return null;
    });
    expect(errors).toEqual([
      { field: TEAM, message: `record ${RECORD_C} was not found` },
      { field: PHOTO, message: 'image file-ABCD-EFGH-JKMN is not an image' },
    ]);
    const error = toValidationError(result, { extra: errors });
    expect(error?.code).toBe('VALIDATION_ERROR');
    expect(error?.status).toBe(400);
    expect(error?.details).toEqual([
      { field: `fields.${TEAM}`, message: `record ${RECORD_C} was not found` },
      { field: `fields.${PHOTO}`, message: 'image file-ABCD-EFGH-JKMN is not an image' },
    ]);
  });

  it('builds one VALIDATION_ERROR naming every field', () => {
    const result = encodeRecordFields(FIELDS, { [AGE]: 'old', Unknown: 1 }, { mode: 'create' });
    const error = toValidationError(result);
    expect(error?.message).toBe(`Invalid values for fields.${AGE}, fields.${NAME}, fields.${EMAIL}`);
    expect(error?.details).toEqual([
      { field: `fields.${AGE}`, message: 'must be a whole number such as 42' },
      { field: `fields.${NAME}`, message: 'is required' },
      { field: `fields.${EMAIL}`, message: 'is required' },
    ]);
    expect(toValidationError(encodeRecordFields(FIELDS, {}, { mode: 'create' }))?.message).toBe(`Missing required fields: ${NAME}, ${EMAIL}`);
    expect(toValidationError(encodeRecordFields(FIELDS, null, { mode: 'create' }), { path: 'records[3].fields' })?.details).toEqual([
      { field: 'records[3].fields', message: 'must be an object keyed by field simplyId' },
    ]);
    expect(toValidationError(encodeRecordFields(FIELDS, { [AGE]: 1 }, { mode: 'update' }))).toBeNull();
  });
});

describe('decoding', () => {
  it('returns wire values and null for empty or foreign stored values', () => {
    expect(decodeValue(field('PLAIN_TEXT'), 'x')).toBe('x');
    expect(decodeValue(field('PLAIN_TEXT'), 5)).toBeNull();
    expect(decodeValue(field('BOOLEAN'), 'true')).toBeNull();
    expect(decodeValue(field('DATE'), '2026-03-01')).toBe('2026-03-01');
    expect(decodeValue(field('DATE'), '2026-03-01T00:00:00.000Z')).toBeNull();
    expect(decodeValue(field('DATE_TIME'), '2026-03-01T00:00:00.000Z')).toBe('2026-03-01T00:00:00.000Z');
    expect(decodeValue(field('NUMBER'), null)).toBeNull();
    expect(decodeValue(field('NUMBER'), undefined)).toBeNull();
  });

  it('returns values of an unknown type unchanged and survives a broken config', () => {
    expect(decodeValue(field('COLOR'), '#fff')).toBe('#fff');
    expect(decodeValue(field('MONEY', { currency: 'NOPE' }), '1.5')).toBe('1.50');
  });

  it('decodes a stored fields object for the given definitions only', () => {
    const stored = { [NAME]: 'Ada', [AGE]: 36, 'GONE-2222-AAAA': 'removed field' };
    expect(decodeRecordFields(FIELDS, stored)).toEqual({ [NAME]: 'Ada', [AGE]: 36 });
    expect(decodeRecordFields(FIELDS, null)).toEqual({});
  });
});
