// The errors of the signed PDF: a source document the platform cannot stamp. They are
// VALIDATION_ERRORs (the shared code) with a detail naming why, so a signing request that names
// such a file is refused when it is created, and a completion never half-writes a document.
import { ValidationError } from '../../../app/errors.ts';

export type UnusablePdfReason = 'ENCRYPTED' | 'MALFORMED';

/** The source PDF is password-protected (encrypted) or cannot be parsed as a PDF. */
export class UnusableSourcePdfError extends ValidationError {
  readonly reason: UnusablePdfReason;

  constructor(reason: UnusablePdfReason, field = 'fileTarget.fileSimplyId') {
    super(
      reason === 'ENCRYPTED'
        ? 'The source PDF is encrypted (password-protected); upload an unprotected copy to have it signed'
        : 'The source file is not a readable PDF document',
      [{ field, message: reason === 'ENCRYPTED' ? 'is an encrypted PDF' : 'is not a readable PDF', reason }],
    );
    this.reason = reason;
  }
}
