// What inspecting an uploaded object answers (inspect-file.ts): the content agrees with the
// declared type, or why it does not.
import type { FileKind } from '../files.allowlist.ts';

export interface InspectionInput {
  /** the object as a local file */
  path: string;
  /** the declared, allowlisted content type */
  contentType: string;
  sizeBytes: number;
}

export type InspectionResult =
  | {
      ok: true;
      kind: FileKind;
      /** images: pixel size (SVG: from its viewBox/width/height when stated) */
      width?: number;
      height?: number;
      /** SVG: the sanitized document to store instead of the upload */
      replacement?: Buffer;
    }
  | { ok: false; message: string };
