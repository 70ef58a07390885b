// Opening the document the signers reviewed. pdf-lib cannot write into an encrypted PDF without
// its password, and a file that does not parse has no pages to stamp: both are refused with a
// typed error before anything is written.
import { PDFDocument } from 'pdf-lib';
import { UnusableSourcePdfError } from './signed-pdf.errors.ts';

const PDF_MAGIC = Buffer.from('%PDF-');

export async function openSourcePdf(bytes: Buffer): Promise<PDFDocument> {
  // the header may follow a little junk (readers allow 1 KiB of it)
  const head = bytes.subarray(0, 1024);
  if (head.indexOf(PDF_MAGIC) < 0) throw new UnusableSourcePdfError('MALFORMED');
  let doc: PDFDocument;
  try {
    // loaded despite encryption only to tell the two refusals apart (pdf-lib's own error class
    // does not survive instanceof)
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    throw new UnusableSourcePdfError('MALFORMED');
  }
  if (doc.isEncrypted) throw new UnusableSourcePdfError('ENCRYPTED');
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch {
    throw new UnusableSourcePdfError('MALFORMED');
  }
  if (pages === 0) throw new UnusableSourcePdfError('MALFORMED');
  return doc;
}

/** Checks a PDF can be signed (not encrypted, parses, has pages); what a signing request checks when it is created. */
export async function inspectSourcePdf(bytes: Buffer): Promise<{ pageCount: number }> {
  const doc = await openSourcePdf(bytes);
  return { pageCount: doc.getPageCount() };
}
