// Who may do what with files (Document 1 §4.7 rule 4; docs/api/files.md "Permissions").
// Managing the media library (replacing a file, targeting a folder, renaming, moving, deleting,
// folders, labels) needs edit-level TEAM_ADMIN_MEDIA_LIBRARY for every caller, and scoped tokens
// (session, OAuth) also the `files:write` scope. Uploading at all needs the same of API keys and
// scoped tokens; a signed-in user may add root-level attachments without it.
// Reading: TEAM_ADMIN_MEDIA_LIBRARY view reads every file of the team; otherwise a caller reads the
// files it uploaded itself and those referenced by a record it can read (files.sql.ts).
import { hasFeature, hasScope, type Principal } from '../../app/auth/principal.ts';
import { PermissionDeniedError } from '../../app/errors.ts';

export const MEDIA_LIBRARY = 'TEAM_ADMIN_MEDIA_LIBRARY';

/** Edit-level media library, and `files:write` for scoped tokens. */
export function canManageMediaLibrary(p: Principal): boolean {
  return hasFeature(p, MEDIA_LIBRARY, 'EDIT') && hasScope(p, 'files:write');
}

export function canViewMediaLibrary(p: Principal): boolean {
  return hasFeature(p, MEDIA_LIBRARY, 'VIEW');
}

export function requireMediaLibraryEdit(p: Principal, what: string): void {
  if (canManageMediaLibrary(p)) return;
  const scope = hasFeature(p, MEDIA_LIBRARY, 'EDIT') ? ' and the files:write scope' : '';
  throw new PermissionDeniedError(`${what} needs edit-level ${MEDIA_LIBRARY}${scope}`);
}

/** Rule 4: what an upload intent needs of its credential. */
export function requireUploadPermission(p: Principal, target: { replacing: boolean; inFolder: boolean }): void {
  if (target.replacing) return requireMediaLibraryEdit(p, 'Replacing a file');
  if (target.inFolder) return requireMediaLibraryEdit(p, 'Uploading into a media-library folder');
  // signed-in first-party users may add root-level attachments (forms, conversations)
  if (p.kind === 'USER') return;
  requireMediaLibraryEdit(p, 'Uploading files with an API key or a scoped token');
}
