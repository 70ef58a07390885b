// A rendered template longer than its caller allows: many tags each holding a long value can
// multiply a small template far beyond what a mail or a preview may be, so rendering stops early.
import { ValidationError } from '../../app/errors.ts';

export class MergeOutputTooLargeError extends ValidationError {
  constructor(max: number) {
    super(`The template with its merge tags filled in would be longer than ${max} characters`, [
      { field: 'template', message: `rendered text must be at most ${max} characters` },
    ]);
  }
}
