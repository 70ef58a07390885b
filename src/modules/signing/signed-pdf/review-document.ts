// The document signers review when the request names no PDF: the title, the request id, and each
// review field as a label with its value, wrapped and flowing over as many pages as it needs. It
// carries no dates, so the same fields always give the same bytes (and the same SHA-256): the
// hash taken when the request is created is the hash certified at completion.
import { PDFDocument, rgb } from 'pdf-lib';
import { embedFonts } from './fonts.ts';
import { FlowWriter } from './pdf-writer.ts';

export interface ReviewField {
  label: string;
  value: string;
}

export async function buildReviewDocument(title: string, requestSimplyId: string, fields: readonly ReviewField[]): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc);
  const writer = new FlowWriter(doc, fonts, `${title} · signing request ${requestSimplyId}`);
  writer.text(title, { font: 'bold', size: 18 });
  writer.space(4);
  writer.text(`Signing request ${requestSimplyId}`, { size: 9, color: rgb(0.35, 0.35, 0.35) });
  writer.rule();
  writer.space(6);
  for (const field of fields) {
    // keep a label with the first line of its value
    writer.ensure(10 * 1.3 + 11 * 1.3 + 8);
    writer.text(field.label, { font: 'bold', size: 10 });
    writer.text(field.value === '' ? '—' : field.value, { size: 11, indent: 8 });
    writer.space(8);
  }
  return Buffer.from(await doc.save());
}
