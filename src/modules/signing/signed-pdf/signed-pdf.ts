// The signed PDF of a completed signing request (docs/api/signing-requests.md "The signed PDF"):
// the source document, or one generated from the review fields, with a stamp on every page, the
// signers' signature blocks and a certificate of completion appended, built with pdf-lib.
// The output is a function of the input alone (no clock, no random ids), so a completion that is
// retried after a crash produces the very same bytes and hash.
import { createHash } from 'node:crypto';
import type { PDFDocument } from 'pdf-lib';
import { attachAuditTrail } from './audit-trail.ts';
import { appendCertificatePages, appendSignaturePages, orderedSigners } from './certificate.ts';
import { embedFonts } from './fonts.ts';
import { buildReviewDocument } from './review-document.ts';
import { openSourcePdf } from './source-pdf.ts';
import { stampPage } from './page-stamp.ts';
import type { SignedPdf, SignedPdfInput } from './signed-pdf.types.ts';


export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The document the signers review, as bytes: the given PDF, or the one generated from the review
 * fields. Its SHA-256 is the request's source document hash.
 */
export async function sourceDocumentBytes(input: Pick<SignedPdfInput, 'title' | 'requestSimplyId' | 'source'>): Promise<Buffer> {
  return 'pdf' in input.source ? input.source.pdf : buildReviewDocument(input.title, input.requestSimplyId, input.source.reviewFields);
}

function stampLine(input: SignedPdfInput, page: number, pages: number): string {
  const names = orderedSigners(input.signers).map((s) => s.name?.trim() || s.typedName?.trim() || s.roleKey);
  const date = `${input.completedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `Electronically signed by ${names.join(', ')} on ${date} · signing request ${input.requestSimplyId} · page ${page} of ${pages}`;
}

export async function buildSignedPdf(input: SignedPdfInput): Promise<SignedPdf> {
  const source = await sourceDocumentBytes(input);
  const sourceSha256 = sha256Hex(source);
  const doc: PDFDocument = await openSourcePdf(source);
  const sourcePageCount = doc.getPageCount();
  const fonts = await embedFonts(doc);

  await appendSignaturePages(doc, fonts, input);
  appendCertificatePages(doc, fonts, input, { sourceSha256, sourcePageCount });
  const pages = doc.getPages();
  pages.forEach((page, i) => stampPage(page, stampLine(input, i + 1, pages.length), fonts.regular));

  await attachAuditTrail(doc, input, sourceSha256);
  doc.setTitle(input.title);
  doc.setSubject(`Signed document of signing request ${input.requestSimplyId}`);
  doc.setProducer('svc-platform signing (pdf-lib)');
  doc.setModificationDate(input.completedAt);
  const pdf = Buffer.from(await doc.save());
  return { pdf, sourceSha256, sha256: sha256Hex(pdf), pageCount: pages.length };
}
