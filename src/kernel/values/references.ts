// Record and file references: SINGLE_DATA_RECORD / MULTI_DATA_RECORD hold record simplyIds,
// *_FILE and *_IMAGE hold file simplyIds. The codec checks only the id shape; whether each id
// exists in the caller's team (and in the target collection, and is an image) is one query per
// kind for the caller, fed by `references`.
import { isSimplyId } from '../../app/ids.ts';
import { type Codec, type CodecContext, defineCodec } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { describeType } from './text-guards.ts';
import { fail, MAX_REFERENCE_ITEMS, ok, type Parsed, type References } from './types.ts';

type RefKind = keyof References;

const RECORD_SHAPE = 'a record simplyId (XXXX-XXXX-XXXX)';
const FILE_SHAPE = 'a file simplyId';

/** Files are not built yet; until they are, a file id is `file-` followed by a record-style id. */
export function isPrefixedFileId(value: string): boolean {
  return value.startsWith('file-') && isSimplyId(value.slice('file-'.length));
}

function idChecker(kind: RefKind, ctx: CodecContext): { test: (v: string) => boolean; shape: string } {
  return kind === 'records' ? { test: (v) => isSimplyId(v), shape: RECORD_SHAPE } : { test: ctx.isFileId, shape: FILE_SHAPE };
}

function parseId(raw: unknown, kind: RefKind, ctx: CodecContext): Parsed<string> {
  const { test, shape } = idChecker(kind, ctx);
  if (typeof raw !== 'string') return fail(`must be ${shape}, not ${describeType(raw)}`);
  const id = raw.trim();
  return test(id) ? ok(id) : fail(`must be ${shape}`);
}

function single<C>(kind: RefKind): Codec<C, string> {
  return defineCodec<C, string>({
    shape: { keyKind: 'id', multi: false, sortable: false },
    operators: ['eq', 'ne', 'in'],
    encode: (raw, _config, ctx) => parseId(raw, kind, ctx),
    isStored: (v): v is string => typeof v === 'string',
    key: (stored) => stored,
    text: (stored) => stored,
    references: (stored) => ({ [kind]: [stored] }),
    operand: (raw, _config, ctx) => parseId(raw, kind, ctx),
  });
}

function multi<C extends { maxItems?: number }>(kind: RefKind): Codec<C, string[]> {
  return defineCodec<C, string[]>({
    shape: { keyKind: 'id', multi: true, sortable: false },
    // On a list, eq and contains both mean "includes", ne "does not include", in "includes any".
    operators: ['eq', 'ne', 'in', 'contains'],
    encode(raw, config, ctx) {
      const { test, shape } = idChecker(kind, ctx);
      if (!Array.isArray(raw)) return fail(`must be an array of ${shape.replace(/^a /, '')}s, not ${describeType(raw)}`);
      const max = config.maxItems ?? MAX_REFERENCE_ITEMS;
      if (raw.length > max) return fail(`must have at most ${max} items (got ${raw.length})`);
      const ids: string[] = [];
      const seen = new Set<string>();
      const problems: string[] = [];
      raw.forEach((item, i) => {
        if (problems.length >= 5) return; // enough to fix the request; the message stays short
        if (typeof item !== 'string' || !test(item.trim())) {
          problems.push(`item ${i} must be ${shape}`);
          return;
        }
        const id = item.trim();
        // Duplicates are an error, not silently merged: they usually mean a client bug.
        if (seen.has(id)) problems.push(`item ${i} repeats ${id}`);
        seen.add(id);
        ids.push(id);
      });
      if (problems.length) return fail(problems.join('; '));
      // Order is kept (galleries, ranked contacts); an empty list is "no value".
      return ok(ids.length ? ids : null);
    },
    isStored: (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    decode: (stored) => (stored.length ? stored : null),
    key: (stored) => stored,
    text: (stored) => stored.join(', '),
    references: (stored) => ({ [kind]: [...stored] }),
    operand: (raw, _config, ctx) => parseId(raw, kind, ctx),
  });
}

export const singleDataRecord = single<FieldConfigOf<'SINGLE_DATA_RECORD'>>('records');
export const multiDataRecord = multi<FieldConfigOf<'MULTI_DATA_RECORD'>>('records');
export const singleFile = single<FieldConfigOf<'SINGLE_FILE'>>('files');
export const multiFile = multi<FieldConfigOf<'MULTI_FILE'>>('files');
export const singleImage = single<FieldConfigOf<'SINGLE_IMAGE'>>('images');
export const multiImage = multi<FieldConfigOf<'MULTI_IMAGE'>>('images');
