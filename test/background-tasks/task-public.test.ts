// What a task may show of its progress, result and error contexts (task-public.ts): storage keys,
// paths and internal, user, render and model identifiers never get through, whatever a type puts
// there.
import { describe, expect, it } from 'vitest';
import { publicObject } from '../../src/modules/background-tasks/task-public.ts';

describe('publicObject', () => {
  it('keeps public fields and drops internal identifiers', () => {
    const shown = publicObject({
      filename: 'people.csv',
      recordCount: 12,
      storageKey: 'teams/T/exports/x.csv',
      bucket: 'b',
      userId: 7n,
      id: 3,
      renderEngine: 'chromium 131',
      model: 'x',
      nested: { rowNumber: 4, objectKey: 'k', path: '/tmp/a' },
    });
    expect(shown).toEqual({ filename: 'people.csv', recordCount: 12, nested: { rowNumber: 4 } });
  });

  it('redacts storage keys and local paths found in values', () => {
    const shown = publicObject({ message: 'teams/T/objects/abc', where: '/tmp/svc/x', list: ['ok', 'exports/y'], when: new Date('2026-11-24T00:00:00Z'), big: 10n, nan: Number.NaN });
    expect(shown).toEqual({ message: '[redacted]', where: '[redacted]', list: ['ok', '[redacted]'], when: '2026-11-24T00:00:00.000Z', big: 10, nan: null });
  });
});
