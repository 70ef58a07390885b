// The keyset cursor of a history list. It names the last delivery of the page it ends and the
// record whose history it pages; the position itself ((createdAt, id) of that delivery) is read
// back from the database, so no numeric id or timestamp travels, and a cursor that does not point
// into the record's history is refused instead of silently restarting or skipping.
import { ValidationError } from '../../app/errors.ts';
import { deliveryId } from './communications.ids.ts';

const VERSION = 'h1';

export function encodeCursor(dataRecordSimplyId: string, deliverySimplyId: string): string {
  return Buffer.from(`${VERSION}|${dataRecordSimplyId}|${deliverySimplyId}`).toString('base64url');
}

export function invalidCursor(): ValidationError {
  return new ValidationError('cursor is not a cursor of this record’s communication history', [
    { field: 'cursor', message: 'invalid cursor: pass meta.nextCursor of the previous page unchanged' },
  ]);
}

/** The delivery simplyId the cursor continues after; a cursor of another record or a malformed one is 400. */
export function decodeCursor(cursor: string, dataRecordSimplyId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  const [version, record, delivery, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (version !== VERSION || record !== dataRecordSimplyId || !delivery || !deliveryId.is(delivery) || rest.length > 0) throw invalidCursor();
  // base64url decoding ignores stray trailing characters: only the exact text this API wrote is accepted
  if (encodeCursor(record, delivery) !== cursor) throw invalidCursor();
  return delivery;
}
