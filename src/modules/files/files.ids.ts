// The identifiers the files area mints. `file-…` is also what record values of the file and
// image data types hold (collections/values/references.ts).
import { idKind } from '../../app/ids.ts';

export const fileId = idKind('file', 'file');
export const fileFolderId = idKind('fdr', 'file folder');
export const fileUploadId = idKind('upl', 'file upload');
export const fileVariantId = idKind('fvr', 'file variant');
export const teamLabelId = idKind('lbl', 'team label');
