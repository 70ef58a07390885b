// Where objects go: keys the platform chooses, never a caller (rule 8). A team's objects stay
// under its own prefix; the drivers accept nothing else (storage-input.ts).
import { randomUUID } from 'node:crypto';

/** the bytes of one upload */
export function uploadObjectKey(teamSimplyId: string): string {
  return `teams/${teamSimplyId}/objects/${randomUUID()}`;
}

/** the sanitized document stored instead of an upload's bytes (SVG) */
export function sanitizedObjectKey(uploadKey: string): string {
  return `${uploadKey}-sanitized`;
}

/** one rendered image variant */
export function variantObjectKey(teamSimplyId: string, format: string): string {
  return `teams/${teamSimplyId}/variants/${randomUUID()}.${format}`;
}

/** the CSV of one data export: private to its background task, never a team file */
export function exportObjectKey(teamSimplyId: string): string {
  return `teams/${teamSimplyId}/exports/${randomUUID()}.csv`;
}
