// Errors of record outputs (docs/api/background-tasks.md "Record history and outputs").
import { ApiError } from '../../app/errors.ts';

/** The output has no document to hand out: it did not succeed (yet), or its file was deleted since. */
export class RecordOutputUnavailableError extends ApiError {
  constructor(simplyId: string, why: string) {
    super(409, 'RECORD_OUTPUT_NOT_AVAILABLE', `Record output ${simplyId} cannot be downloaded: ${why}`);
  }
}
