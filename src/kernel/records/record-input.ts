// Turns a `fields` input into stored values for one collection: type validation (values layer),
// field-level write permission, existence of referenced records and files in the team. Pure apart from the
// one reference query per call, which covers every item of a batch.
import type pg from 'pg';
import { PermissionDeniedError, type ValidationError } from '../../app/errors.ts';
import type { CollectionAccess } from '../schema/access.ts';
import { encodeRecordFields, type FieldError, referenceErrors, type RecordFieldsResult, toValidationError } from '../values/index.ts';
import { findRecordHomes } from './records.sql.ts';

/**
 * How the kernel asks whether file ids name live files of a team, and of which kind (IMAGE, …).
 * Files are another area's rows: that area answers, through `services.fileReferences`.
 */
export interface FileReferenceLookup {
  liveFileKinds(db: pg.Pool | pg.PoolClient, teamId: bigint, ids: readonly string[]): Promise<Map<string, string>>;
}

declare module '../../app/context.ts' {
  interface Services {
    fileReferences: FileReferenceLookup;
  }
}

export interface PreparedFields {
  result: RecordFieldsResult;
  /** the 400 or 403 this item fails with, or null */
  error: ValidationError | PermissionDeniedError | null;
}

export function prepareFields(access: CollectionAccess, input: unknown, mode: 'create' | 'update', path = 'fields'): PreparedFields {
  const result = encodeRecordFields(access.fields, input, { mode });
  const denied = Object.keys(result.values).filter((id) => !access.editable.has(id));
  if (denied.length > 0) {
    return { result, error: new PermissionDeniedError(`The credential's team role cannot edit field${denied.length > 1 ? 's' : ''} ${denied.join(', ')}`) };
  }
  return { result, error: toValidationError(result, { path }) };
}

/** Checks every record, file and image id referenced by the prepared items (one query per kind,
 *  run side by side, covering every item of a batch); items whose references fail get their 400.
 *  Files must be live files of the team; image fields need image files. */
export async function checkReferences(db: pg.Pool | pg.PoolClient, files: FileReferenceLookup, access: CollectionAccess, items: PreparedFields[], paths: string[]): Promise<void> {
  const wanted = new Set<string>();
  const wantedFiles = new Set<string>();
  for (const item of items) {
    if (item.error) continue;
    for (const id of item.result.references.records) wanted.add(id);
    for (const id of [...item.result.references.files, ...item.result.references.images]) wantedFiles.add(id);
  }
  if (wanted.size === 0 && wantedFiles.size === 0) return;
  const teamId = access.schema.teamId;
  // a pool runs the two lookups side by side; a transaction's client runs them one after the other
  const [found, fileKinds] = await Promise.all([
    wanted.size > 0 ? findRecordHomes(db, teamId, [...wanted]) : new Map<string, string>(),
    wantedFiles.size > 0 ? files.liveFileKinds(db, teamId, [...wantedFiles]) : new Map<string, string>(),
  ]);
  const fieldsById = new Map(access.fields.map((f) => [f.dataFieldSimplyId, f]));
  items.forEach((item, i) => {
    if (item.error) return;
    const extra: FieldError[] = referenceErrors(item.result.referencedBy, (kind, id, fieldId) => {
      if (kind !== 'records') {
        const fileType = fileKinds.get(id);
        if (!fileType) return 'was not found';
        return kind === 'images' && fileType !== 'IMAGE' ? 'is not an image' : null;
      }
      const home = found.get(id);
      if (!home) return 'was not found';
      const target = (fieldsById.get(fieldId)?.config as { targetDataCollectionSimplyId?: string } | undefined)?.targetDataCollectionSimplyId;
      return target && target !== home ? `is not in collection ${target}` : null;
    });
    if (extra.length > 0) item.error = toValidationError({ errors: [], missingRequired: [] }, { path: paths[i], extra });
  });
}
