// The documented signal that a subscriber may have missed events (docs/api/data-records.md,
// "Delivery guarantee"): over graphql-ws a `next` message whose `errors[0].extensions.code` is
// RESYNC_REQUIRED and whose `data` is null; the subscription stays open and later events follow.
// The client re-reads the state it shows.
import { GraphQLError } from 'graphql';
import { ApiError } from '../errors.ts';

export const RESYNC_REQUIRED = 'RESYNC_REQUIRED';
const MESSAGE = 'Realtime events may have been missed; read the current state again';

export class ResyncRequiredError extends ApiError {
  constructor() {
    super(409, RESYNC_REQUIRED, MESSAGE);
  }
}

export function resyncResult(): { data: null; errors: GraphQLError[] } {
  return { data: null, errors: [new GraphQLError(MESSAGE, { extensions: { code: RESYNC_REQUIRED, status: 409 } })] };
}
