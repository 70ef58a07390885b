// BOOLEAN, and record and file references: id shapes, uniqueness, limits, and what the caller verifies.
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, MAX_REFERENCE_ITEMS } from '../../../src/kernel/values/index.ts';
import { accept, field, RECORD_A, RECORD_B, RECORD_C, reject } from './helpers.ts';

function idsOf(n: number): string[] {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  return Array.from({ length: n }, (_, i) => {
    const a = alphabet[i % 31]! + alphabet[Math.floor(i / 31) % 31]! + alphabet[Math.floor(i / 961) % 31]! + 'A';
    return `${a}-BBBB-CCCC`;
  });
}

describe('BOOLEAN', () => {
  it('accepts true and false; null clears', () => {
    expect(accept('BOOLEAN', true)).toBe(true);
    expect(accept('BOOLEAN', false)).toBe(false);
    expect(encodeValue(field('BOOLEAN'), null)).toMatchObject({ ok: true, value: null });
  });

  it.each(['true', 'false', 1, 0, 'yes', [true], {}])('refuses %j instead of guessing', (raw) => {
    expect(reject('BOOLEAN', raw)).toMatch(/must be true or false/);
  });
});

describe('SINGLE_DATA_RECORD', () => {
  it('accepts a record simplyId and reports it for the existence check', () => {
    expect(encodeValue(field('SINGLE_DATA_RECORD'), RECORD_A)).toEqual({
      ok: true,
      value: RECORD_A,
      references: { records: [RECORD_A], files: [], images: [] },
    });
    expect(accept('SINGLE_DATA_RECORD', ` ${RECORD_A} `)).toBe(RECORD_A);
  });

  it.each(['abcd-efgh-jkmn', 'ABCD-EFGH-JKM0', 'ABCD-EFGH', 'ABCD-EFGH-JKMN-PQRS', 'file-ABCD-EFGH-JKMN', 'tm-ABCD-EFGH-JKMN', 12345, '12345'])(
    'refuses %j, which is not a record simplyId',
    (raw) => {
      expect(reject('SINGLE_DATA_RECORD', raw)).toMatch(/record simplyId/);
    },
  );

  it('refuses an array', () => {
    expect(reject('SINGLE_DATA_RECORD', [RECORD_A])).toMatch(/not an array/);
  });
});

describe('MULTI_DATA_RECORD', () => {
  it('keeps order and reports every id', () => {
    expect(encodeValue(field('MULTI_DATA_RECORD'), [RECORD_B, RECORD_A, RECORD_C])).toEqual({
      ok: true,
      value: [RECORD_B, RECORD_A, RECORD_C],
      references: { records: [RECORD_B, RECORD_A, RECORD_C], files: [], images: [] },
    });
  });

  it('refuses duplicates instead of merging them', () => {
    expect(reject('MULTI_DATA_RECORD', [RECORD_A, RECORD_B, RECORD_A])).toBe(`item 2 repeats ${RECORD_A}`);
    expect(reject('MULTI_DATA_RECORD', [RECORD_A, ` ${RECORD_A}`])).toMatch(/repeats/);
  });

  it(`accepts up to ${MAX_REFERENCE_ITEMS} ids and refuses more`, () => {
    const ids = idsOf(1001);
    expect(new Set(ids).size).toBe(1001);
    expect(accept('MULTI_DATA_RECORD', ids.slice(0, 1000))).toHaveLength(1000);
    expect(reject('MULTI_DATA_RECORD', ids)).toBe('must have at most 1000 items (got 1001)');
  });

  it('applies config.maxItems', () => {
    expect(reject('MULTI_DATA_RECORD', [RECORD_A, RECORD_B, RECORD_C], { maxItems: 2 })).toBe('must have at most 2 items (got 3)');
  });

  it('names the bad items, up to five', () => {
    const message = reject('MULTI_DATA_RECORD', [RECORD_A, 'nope', 7, null, 'x', 'y', 'z', 'w']);
    expect(message).toBe('item 1 must be a record simplyId (XXXX-XXXX-XXXX); item 2 must be a record simplyId (XXXX-XXXX-XXXX); item 3 must be a record simplyId (XXXX-XXXX-XXXX); item 4 must be a record simplyId (XXXX-XXXX-XXXX); item 5 must be a record simplyId (XXXX-XXXX-XXXX)');
  });

  it('treats an empty list as empty (clears) and refuses a bare string', () => {
    expect(accept('MULTI_DATA_RECORD', [])).toBeNull();
    expect(reject('MULTI_DATA_RECORD', RECORD_A)).toMatch(/must be an array of record simplyId/);
  });

  it('decodes the list, and an empty or foreign stored value as null', () => {
    expect(decodeValue(field('MULTI_DATA_RECORD'), [RECORD_A])).toEqual([RECORD_A]);
    expect(decodeValue(field('MULTI_DATA_RECORD'), [])).toBeNull();
    expect(decodeValue(field('MULTI_DATA_RECORD'), RECORD_A)).toBeNull();
  });
});

describe('file and image references', () => {
  const FILE_A = 'file-ABCD-EFGH-JKMN';
  const FILE_B = 'file-2345-6789-PQRS';

  it('accept file-prefixed ids by default and report them as files or images', () => {
    expect(encodeValue(field('SINGLE_FILE'), FILE_A)).toMatchObject({ ok: true, value: FILE_A, references: { records: [], files: [FILE_A], images: [] } });
    expect(encodeValue(field('SINGLE_IMAGE'), FILE_A)).toMatchObject({ ok: true, value: FILE_A, references: { records: [], files: [], images: [FILE_A] } });
    expect(encodeValue(field('MULTI_FILE'), [FILE_A, FILE_B])).toMatchObject({ references: { files: [FILE_A, FILE_B] } });
    expect(encodeValue(field('MULTI_IMAGE'), [FILE_B])).toMatchObject({ references: { images: [FILE_B] } });
  });

  it.each(['ABCD-EFGH-JKMN', 'file-abcd-efgh-jkmn', 'file_ABCD-EFGH-JKMN', 'fil-ABCD-EFGH-JKMN', 42])('refuse %j', (raw) => {
    expect(reject('SINGLE_FILE', raw)).toMatch(/file simplyId/);
    expect(reject('SINGLE_IMAGE', raw)).toMatch(/file simplyId/);
  });

  it('use the file-id predicate the caller passes', () => {
    const isFileId = (v: string) => /^fl_[a-z0-9]{8}$/.test(v);
    expect(accept('SINGLE_FILE', 'fl_abc12345', undefined, { isFileId })).toBe('fl_abc12345');
    expect(reject('SINGLE_FILE', FILE_A, undefined, { isFileId })).toMatch(/file simplyId/);
    expect(accept('MULTI_IMAGE', ['fl_abc12345', 'fl_00000000'], undefined, { isFileId })).toEqual(['fl_abc12345', 'fl_00000000']);
  });

  it('refuse duplicates and more than maxItems', () => {
    expect(reject('MULTI_FILE', [FILE_A, FILE_A])).toMatch(/repeats/);
    expect(reject('MULTI_IMAGE', [FILE_A, FILE_B], { maxItems: 1 })).toBe('must have at most 1 items (got 2)');
  });
});
