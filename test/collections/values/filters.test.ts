// Search filters: operators per data type and operand normalization into key space.
import { describe, expect, it } from 'vitest';
import {
  DATA_TYPES,
  type FieldDef,
  indexKey,
  MAX_FILTERS,
  normalizeFilter,
  normalizeFilters,
  normalizeSystemFilter,
  operatorsFor,
  valueShape,
} from '../../../src/kernel/values/index.ts';
import { field, FIELD_ID, RECORD_A, RECORD_B } from './helpers.ts';

const RANGE = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'in'];
const TEXT = ['eq', 'ne', 'in', 'contains', 'startsWith'];

describe('operatorsFor', () => {
  it('gives each data type its operators', () => {
    expect(Object.fromEntries(DATA_TYPES.map((t) => [t, operatorsFor(t)]))).toEqual({
      PLAIN_TEXT: TEXT,
      FORMATTED_TEXT: ['eq', 'ne', 'contains'],
      NUMBER: RANGE,
      DECIMAL: RANGE,
      MONEY: RANGE,
      DATE: RANGE,
      DATE_TIME: RANGE,
      EMAIL_ADDRESS: TEXT,
      PHONE_NUMBER: TEXT,
      BOOLEAN: ['eq', 'ne'],
      URL: TEXT,
      PHYSICAL_ADDRESS: ['eq', 'ne', 'contains'],
      SINGLE_DATA_RECORD: ['eq', 'ne', 'in'],
      MULTI_DATA_RECORD: ['eq', 'ne', 'in', 'contains'],
      SINGLE_FILE: ['eq', 'ne', 'in'],
      MULTI_FILE: ['eq', 'ne', 'in', 'contains'],
      SINGLE_IMAGE: ['eq', 'ne', 'in'],
      MULTI_IMAGE: ['eq', 'ne', 'in', 'contains'],
    });
  });

  it('has a text pattern for every type offering contains or startsWith on a scalar', () => {
    for (const dataType of DATA_TYPES) {
      for (const operator of operatorsFor(dataType).filter((o) => o === 'contains' || o === 'startsWith')) {
        const result = normalizeFilter(field(dataType), operator, '123');
        // reference lists take an id for contains, so '123' is a value error there, not a crash
        expect(result.ok || ('part' in result && result.part === 'value'), `${dataType} ${operator}`).toBe(true);
      }
    }
  });

  it('describes the key shape of each type', () => {
    expect(valueShape('DECIMAL')).toEqual({ keyKind: 'decimal', multi: false, sortable: true });
    expect(valueShape('MULTI_DATA_RECORD')).toEqual({ keyKind: 'id', multi: true, sortable: false });
    expect(valueShape('FORMATTED_TEXT')).toEqual({ keyKind: 'text', multi: false, sortable: false });
  });
});

describe('normalizeFilter', () => {
  it('refuses unknown operators and operators a type does not support', () => {
    expect(normalizeFilter(field('NUMBER'), 'between', [1, 2])).toEqual({ ok: false, part: 'operator', message: expect.stringContaining('unknown operator "between"') });
    expect(normalizeFilter(field('NUMBER'), 'contains', 1)).toEqual({
      ok: false,
      part: 'operator',
      message: 'contains does not apply to NUMBER fields; use eq, ne, gt, lt, gte, lte, in',
    });
    expect(normalizeFilter(field('BOOLEAN'), 'gt', true)).toMatchObject({ ok: false, part: 'operator' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'gt', 'a')).toMatchObject({ ok: false, part: 'operator' });
    expect(normalizeFilter(field('SINGLE_DATA_RECORD'), 'contains', RECORD_A)).toMatchObject({ ok: false, part: 'operator' });
    expect(normalizeFilter(field('MULTI_FILE'), 'startsWith', 'file-')).toMatchObject({ ok: false, part: 'operator' });
  });

  it('takes null with eq/ne only (is empty / is not empty), for every type', () => {
    for (const dataType of DATA_TYPES) {
      expect(normalizeFilter(field(dataType), 'eq', null), dataType).toEqual({ ok: true, operator: 'eq', value: null });
      expect(normalizeFilter(field(dataType), 'ne', null), dataType).toEqual({ ok: true, operator: 'ne', value: null });
    }
    expect(normalizeFilter(field('NUMBER'), 'gt', null)).toEqual({ ok: false, part: 'value', message: 'gt needs a value; only eq and ne take null' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'contains', null)).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeFilter(field('NUMBER'), 'eq', undefined)).toMatchObject({ ok: false, part: 'value' });
  });

  it('normalizes numbers, decimals and dates for ranges', () => {
    expect(normalizeFilter(field('NUMBER'), 'gt', '5')).toEqual({ ok: true, operator: 'gt', value: 5 });
    expect(normalizeFilter(field('NUMBER'), 'lte', 2.5)).toMatchObject({ ok: false, part: 'value', message: 'must be a whole number' });
    expect(normalizeFilter(field('DECIMAL', { scale: 2 }), 'eq', '12.30')).toEqual({ ok: true, operator: 'eq', value: '12.3' });
    expect(normalizeFilter(field('DECIMAL'), 'gte', '1e3')).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeFilter(field('DATE'), 'gt', '2024-02-29')).toEqual({ ok: true, operator: 'gt', value: '2024-02-29' });
    expect(normalizeFilter(field('DATE'), 'gt', '2026-02-30')).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeFilter(field('DATE'), 'lt', '2026-03-01T00:00:00Z')).toMatchObject({ ok: false, part: 'value' });
  });

  it('takes DATE_TIME bounds as timestamps with offsets, or a bare date meaning midnight UTC', () => {
    expect(normalizeFilter(field('DATE_TIME'), 'gte', '2026-03-01T10:00:00+02:00')).toEqual({ ok: true, operator: 'gte', value: '2026-03-01T08:00:00.000Z' });
    expect(normalizeFilter(field('DATE_TIME'), 'lt', '2026-03-01')).toEqual({ ok: true, operator: 'lt', value: '2026-03-01T00:00:00.000Z' });
    expect(normalizeFilter(field('DATE_TIME'), 'lt', '2026-02-30')).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeFilter(field('DATE_TIME'), 'lt', '2026-03-01T10:00:00')).toMatchObject({ ok: false, part: 'value' });
  });

  it('compares text case-insensitively: operands are lower-cased like keys', () => {
    expect(normalizeFilter(field('PLAIN_TEXT'), 'eq', 'Ada LOVELACE')).toEqual({ ok: true, operator: 'eq', value: 'ada lovelace' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'contains', 'LACE')).toEqual({ ok: true, operator: 'contains', value: 'lace' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'startsWith', 'Ada')).toEqual({ ok: true, operator: 'startsWith', value: 'ada' });
    expect(indexKey(field('PLAIN_TEXT'), 'Ada Lovelace')).toBe('ada lovelace');
  });

  it('refuses empty and oversized text patterns, and blank eq (use null)', () => {
    expect(normalizeFilter(field('PLAIN_TEXT'), 'contains', '')).toMatchObject({ ok: false, message: 'must not be empty' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'contains', 'x'.repeat(1001))).toMatchObject({ ok: false, message: 'must be at most 1000 characters' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'contains', 5)).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeFilter(field('PLAIN_TEXT'), 'eq', '  ')).toMatchObject({ ok: false, message: expect.stringContaining('use null') });
  });

  it('takes booleans only for BOOLEAN', () => {
    expect(normalizeFilter(field('BOOLEAN'), 'eq', true)).toEqual({ ok: true, operator: 'eq', value: true });
    expect(normalizeFilter(field('BOOLEAN'), 'ne', 'true')).toMatchObject({ ok: false, part: 'value' });
  });

  it('matches FORMATTED_TEXT and PHYSICAL_ADDRESS by contains on their text', () => {
    expect(normalizeFilter(field('FORMATTED_TEXT'), 'contains', 'Hello World')).toEqual({ ok: true, operator: 'contains', value: 'hello world' });
    expect(normalizeFilter(field('FORMATTED_TEXT'), 'eq', '<p>x</p>')).toMatchObject({ ok: false, part: 'value' });
    expect(indexKey(field('FORMATTED_TEXT'), '<p>Hello <b>World</b></p>')).toBe('hello world');
  });

  describe('in', () => {
    it('takes 1 to 100 scalars, normalized and de-duplicated', () => {
      expect(normalizeFilter(field('NUMBER'), 'in', [1, '2', 1, 3])).toEqual({ ok: true, operator: 'in', value: [1, 2, 3] });
      expect(normalizeFilter(field('PLAIN_TEXT'), 'in', ['A', 'a', 'b'])).toEqual({ ok: true, operator: 'in', value: ['a', 'b'] });
      const hundred = Array.from({ length: 100 }, (_, i) => i);
      expect(normalizeFilter(field('NUMBER'), 'in', hundred)).toMatchObject({ ok: true, value: hundred });
    });

    it('refuses 0 or 101 values, non-arrays and non-scalar items', () => {
      expect(normalizeFilter(field('NUMBER'), 'in', [])).toEqual({ ok: false, part: 'value', message: 'in takes 1 to 100 values (got 0)' });
      expect(normalizeFilter(field('NUMBER'), 'in', Array.from({ length: 101 }, (_, i) => i))).toEqual({
        ok: false,
        part: 'value',
        message: 'in takes 1 to 100 values (got 101)',
      });
      expect(normalizeFilter(field('NUMBER'), 'in', 5)).toMatchObject({ ok: false, message: 'in takes an array of values, not a number' });
      expect(normalizeFilter(field('NUMBER'), 'in', [1, [2], { x: 3 }, null])).toMatchObject({
        ok: false,
        message: 'item 1 must be a scalar (string, number or boolean); item 2 must be a scalar (string, number or boolean); item 3 must be a scalar (string, number or boolean)',
      });
      expect(normalizeFilter(field('DATE'), 'in', ['2026-01-01', '2026-02-30'])).toMatchObject({ ok: false, message: 'item 1 day 30 does not exist in 2026-02' });
    });
  });

  describe('references', () => {
    it('match single references by id with eq/ne/in', () => {
      expect(normalizeFilter(field('SINGLE_DATA_RECORD'), 'eq', RECORD_A)).toEqual({ ok: true, operator: 'eq', value: RECORD_A });
      expect(normalizeFilter(field('SINGLE_DATA_RECORD'), 'in', [RECORD_A, RECORD_B])).toEqual({ ok: true, operator: 'in', value: [RECORD_A, RECORD_B] });
      expect(normalizeFilter(field('SINGLE_DATA_RECORD'), 'eq', 'abcd-efgh-jkmn')).toMatchObject({ ok: false, part: 'value' });
    });

    it('match reference lists by inclusion: eq and contains take one id', () => {
      expect(normalizeFilter(field('MULTI_DATA_RECORD'), 'contains', RECORD_A)).toEqual({ ok: true, operator: 'contains', value: RECORD_A });
      expect(normalizeFilter(field('MULTI_DATA_RECORD'), 'eq', RECORD_A)).toEqual({ ok: true, operator: 'eq', value: RECORD_A });
      expect(normalizeFilter(field('MULTI_DATA_RECORD'), 'eq', [RECORD_A])).toMatchObject({ ok: false, part: 'value' });
      expect(normalizeFilter(field('MULTI_IMAGE'), 'in', ['file-ABCD-EFGH-JKMN'])).toEqual({ ok: true, operator: 'in', value: ['file-ABCD-EFGH-JKMN'] });
      expect(normalizeFilter(field('MULTI_FILE'), 'contains', RECORD_A)).toMatchObject({ ok: false, part: 'value' });
      expect(normalizeFilter(field('MULTI_FILE'), 'contains', 'f1', { isFileId: (v) => v === 'f1' })).toMatchObject({ ok: true, value: 'f1' });
    });
  });

  it('reports an unusable field definition as the field part', () => {
    expect(normalizeFilter(field('COLOR'), 'eq', 'red')).toMatchObject({ ok: false, part: 'field' });
    expect(normalizeFilter(field('NUMBER', { nope: 1 }), 'eq', 1)).toMatchObject({ ok: false, part: 'field' });
  });
});

describe('normalizeSystemFilter', () => {
  it('handles calculatedName like text', () => {
    expect(normalizeSystemFilter('calculatedName', 'contains', 'ADA')).toEqual({ ok: true, operator: 'contains', value: 'ada' });
    expect(normalizeSystemFilter('calculatedName', 'eq', 'Ada Lovelace')).toEqual({ ok: true, operator: 'eq', value: 'ada lovelace' });
    expect(normalizeSystemFilter('calculatedName', 'gt', 'a')).toMatchObject({ ok: false, part: 'operator' });
  });

  it('handles createdAt/updatedAt with ranges only', () => {
    expect(normalizeSystemFilter('createdAt', 'gte', '2026-03-01T00:00:00+01:00')).toEqual({ ok: true, operator: 'gte', value: '2026-02-28T23:00:00.000Z' });
    expect(normalizeSystemFilter('updatedAt', 'lt', '2026-03-01')).toEqual({ ok: true, operator: 'lt', value: '2026-03-01T00:00:00.000Z' });
    expect(normalizeSystemFilter('createdAt', 'eq', '2026-03-01')).toMatchObject({ ok: false, part: 'operator' });
    expect(normalizeSystemFilter('createdAt', 'gt', 'yesterday')).toMatchObject({ ok: false, part: 'value' });
  });

  it('handles isArchived with eq and a boolean', () => {
    expect(normalizeSystemFilter('isArchived', 'eq', true)).toEqual({ ok: true, operator: 'eq', value: true });
    expect(normalizeSystemFilter('isArchived', 'eq', 'true')).toMatchObject({ ok: false, part: 'value' });
    expect(normalizeSystemFilter('isArchived', 'ne', true)).toMatchObject({ ok: false, part: 'operator' });
  });
});

describe('normalizeFilters', () => {
  const FIELDS: FieldDef[] = [field('NUMBER'), { dataFieldSimplyId: 'TEXT-2222-AAAA', dataType: 'PLAIN_TEXT' }];

  it('normalizes a filters array of custom and built-in fields', () => {
    expect(
      normalizeFilters(FIELDS, [
        { field: FIELD_ID, operator: 'gte', value: '10' },
        { field: 'TEXT-2222-AAAA', operator: 'startsWith', value: 'Ab' },
        { field: 'createdAt', operator: 'lt', value: '2026-01-01' },
        { field: 'isArchived', operator: 'eq', value: false },
      ]),
    ).toEqual({
      ok: true,
      filters: [
        { field: FIELD_ID, dataType: 'NUMBER', operator: 'gte', value: 10 },
        { field: 'TEXT-2222-AAAA', dataType: 'PLAIN_TEXT', operator: 'startsWith', value: 'ab' },
        { field: 'createdAt', dataType: null, operator: 'lt', value: '2026-01-01T00:00:00.000Z' },
        { field: 'isArchived', dataType: null, operator: 'eq', value: false },
      ],
    });
    expect(normalizeFilters(FIELDS, undefined)).toEqual({ ok: true, filters: [] });
  });

  it(`accepts ${MAX_FILTERS} filters and refuses ${MAX_FILTERS + 1}`, () => {
    const one = { field: FIELD_ID, operator: 'gt', value: 1 };
    expect(normalizeFilters(FIELDS, Array.from({ length: 25 }, () => one))).toMatchObject({ ok: true });
    expect(normalizeFilters(FIELDS, Array.from({ length: 26 }, () => one))).toEqual({ ok: false, details: [{ field: 'filters', message: 'at most 25 filters (got 26)' }] });
  });

  it('names the failing part of every bad filter', () => {
    expect(
      normalizeFilters(FIELDS, [
        { field: 'NOPE-2222-AAAA', operator: 'eq', value: 1 },
        { field: FIELD_ID, operator: 'contains', value: 1 },
        { field: FIELD_ID, operator: 'gt', value: 'x' },
        { field: FIELD_ID },
        'eq',
        { operator: 'eq', value: 1 },
      ]),
    ).toEqual({
      ok: false,
      details: [
        { field: 'filters[0].field', message: 'NOPE-2222-AAAA is not a field of this collection' },
        { field: 'filters[1].operator', message: 'contains does not apply to NUMBER fields; use eq, ne, gt, lt, gte, lte, in' },
        { field: 'filters[2].value', message: 'must be a whole number such as 42' },
        { field: 'filters[3].operator', message: 'is required' },
        { field: 'filters[4]', message: 'must be an object { field, operator, value }' },
        { field: 'filters[5].field', message: expect.stringContaining('field simplyId') },
      ],
    });
    expect(normalizeFilters(FIELDS, { field: FIELD_ID })).toEqual({ ok: false, details: [{ field: 'filters', message: 'must be an array of { field, operator, value }' }] });
  });
});
