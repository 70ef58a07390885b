// Index keys, sort keys, key ordering and display text.
import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareKeys, indexKey, sortKey, toDisplayText } from '../../../src/kernel/values/index.ts';
import { field, RECORD_A, RECORD_B } from './helpers.ts';

describe('indexKey', () => {
  it.each([
    ['PLAIN_TEXT', 'Hello World', 'hello world'],
    ['EMAIL_ADDRESS', 'Jane@example.com', 'jane@example.com'],
    ['URL', 'https://example.com/Path', 'https://example.com/path'],
    ['PHONE_NUMBER', '+14155552671', '+14155552671'],
    ['NUMBER', 42, 42],
    ['DECIMAL', '12.30', '12.3'],
    ['MONEY', '100.00', '100'],
    ['DATE', '2026-03-01', '2026-03-01'],
    ['DATE_TIME', '2026-03-01T09:30:00.000Z', '2026-03-01T09:30:00.000Z'],
    ['BOOLEAN', false, false],
    ['SINGLE_DATA_RECORD', RECORD_A, RECORD_A],
    ['MULTI_DATA_RECORD', [RECORD_A, RECORD_B], [RECORD_A, RECORD_B]],
    ['PHYSICAL_ADDRESS', { line1: '1 Main St', city: 'Springfield', countryCode: 'US' }, '1 main st, springfield, us'],
    ['FORMATTED_TEXT', '<p>Hi <b>There</b></p>', 'hi there'],
  ])('%s: %j has the key %j', (dataType, stored, key) => {
    expect(indexKey(field(dataType), stored)).toEqual(key);
  });

  it('is null for empty values, foreign values and unknown types', () => {
    expect(indexKey(field('NUMBER'), null)).toBeNull();
    expect(indexKey(field('NUMBER'), 'x')).toBeNull();
    expect(indexKey(field('COLOR'), '#fff')).toBeNull();
  });
});

describe('sortKey', () => {
  it('is the index key for sortable types and null for the others', () => {
    expect(sortKey(field('PLAIN_TEXT'), 'Zed')).toBe('zed');
    expect(sortKey(field('DECIMAL'), '1.50')).toBe('1.5');
    expect(sortKey(field('FORMATTED_TEXT'), '<p>x</p>')).toBeNull();
    expect(sortKey(field('PHYSICAL_ADDRESS'), { line1: 'a', city: 'b', countryCode: 'US' })).toBeNull();
    expect(sortKey(field('SINGLE_DATA_RECORD'), RECORD_A)).toBeNull();
    expect(sortKey(field('MULTI_DATA_RECORD'), [RECORD_A])).toBeNull();
  });
});

describe('compareKeys', () => {
  it('orders decimals numerically, not as strings', () => {
    const keys = ['10', '9.5', '-1', '100', '0.001', '-0.5'];
    expect([...keys].sort((a, b) => compareKeys('decimal', a, b))).toEqual(['-1', '-0.5', '0.001', '9.5', '10', '100']);
    expect(compareKeys('decimal', '0.30000000000000004', '0.3')).toBeGreaterThan(0);
  });

  it('orders integers, booleans, dates and timestamps', () => {
    expect([10, -2, 3].sort((a, b) => compareKeys('integer', a, b))).toEqual([-2, 3, 10]);
    expect([true, false].sort((a, b) => compareKeys('boolean', a, b))).toEqual([false, true]);
    expect(['2026-03-01', '2025-12-31', '2026-01-15'].sort((a, b) => compareKeys('date', a, b))).toEqual(['2025-12-31', '2026-01-15', '2026-03-01']);
    expect(compareKeys('timestamp', '2026-03-01T09:30:00.000Z', '2026-03-01T09:29:59.999Z')).toBeGreaterThan(0);
  });

  it('puts empty values last', () => {
    expect([3, null, 1].sort((a, b) => compareKeys('integer', a, b))).toEqual([1, 3, null]);
    expect(compareKeys('text', null, null)).toBe(0);
  });

  it('orders text by code point (UTF-8 byte order), like a C-collated index', () => {
    // U+FF5E (fullwidth tilde) sorts before U+1F600 (emoji) by code point, after it by UTF-16 unit
    expect(compareCodePoints('\uff5e', '😀')).toBeLessThan(0);
    expect('\uff5e' < '😀').toBe(false);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('😀a', '😀b')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});

describe('toDisplayText', () => {
  it.each([
    ['NUMBER', 42, '42'],
    ['BOOLEAN', true, 'true'],
    ['DATE', '2026-03-01', '2026-03-01'],
    ['MULTI_DATA_RECORD', [RECORD_A, RECORD_B], `${RECORD_A}, ${RECORD_B}`],
    ['PLAIN_TEXT', 'two\nlines', 'two lines'],
  ])('%s: %j reads %j', (dataType, stored, text) => {
    expect(toDisplayText(field(dataType), stored)).toBe(text);
  });

  it('is empty for no value', () => {
    expect(toDisplayText(field('PLAIN_TEXT'), null)).toBe('');
    expect(toDisplayText(field('NUMBER'), 'garbage')).toBe('');
  });
});
