// The pages appended to the signed document: first each signer's signature block (drawn image
// and/or typed name, role, date), then the certificate of completion (the request, the source
// document's SHA-256, and every signer's events with time, IP address and user agent). Both
// flow over as many pages as they need.
import { rgb, type PDFDocument, type PDFImage } from 'pdf-lib';
import type { Fonts } from './fonts.ts';
import { FlowWriter } from './pdf-writer.ts';
import type { SignedPdfInput, SignedPdfSigner } from './signed-pdf.types.ts';
import { needsReplacement } from './drawable-text.ts';

const GREY = rgb(0.35, 0.35, 0.35);

export function utc(at: Date): string {
  return at.toISOString();
}

/** Signers in signing order; equal orders keep the order they were given in. */
export function orderedSigners(signers: readonly SignedPdfSigner[]): SignedPdfSigner[] {
  return signers.map((s, i) => ({ s, i })).sort((a, b) => a.s.signingOrder - b.s.signingOrder || a.i - b.i).map(({ s }) => s);
}

export function signedAt(signer: SignedPdfSigner, fallback: Date): Date {
  const signed = signer.events.filter((e) => e.type.toUpperCase() === 'SIGNED').at(-1);
  return signed?.at ?? fallback;
}

function displayName(signer: SignedPdfSigner): string {
  return signer.name?.trim() || signer.typedName?.trim() || signer.email || signer.roleKey;
}

async function embedSignatureImage(doc: PDFDocument, png: Buffer | null): Promise<PDFImage | 'unreadable' | null> {
  if (!png || png.length === 0) return null;
  try {
    return await doc.embedPng(png);
  } catch {
    return 'unreadable';
  }
}

export async function appendSignaturePages(doc: PDFDocument, fonts: Fonts, input: SignedPdfInput): Promise<void> {
  const w = new FlowWriter(doc, fonts, `${input.title} · signing request ${input.requestSimplyId} · signatures`);
  w.text('Signatures', { font: 'bold', size: 16 });
  w.text(input.title, { size: 10, color: GREY });
  w.rule();
  for (const signer of orderedSigners(input.signers)) {
    const image = await embedSignatureImage(doc, signer.signatureImagePng);
    w.ensure(120);
    w.space(6);
    w.text(`${displayName(signer)} (${signer.roleKey})`, { font: 'bold', size: 11 });
    if (image && image !== 'unreadable') w.image(image, 220, 70, 8);
    if (image === 'unreadable') w.text('[the drawn signature image could not be read]', { size: 9, color: GREY, indent: 8 });
    if (signer.typedName) w.text(signer.typedName, { font: 'italic', size: 22, indent: 8 });
    if (!image && !signer.typedName) w.text('[no signature captured]', { size: 9, color: GREY, indent: 8 });
    w.text(`Signed electronically on ${utc(signedAt(signer, input.completedAt))}`, { size: 9, indent: 8 });
    if (signer.email) w.text(signer.email, { size: 9, color: GREY, indent: 8 });
    w.rule();
  }
}

export function appendCertificatePages(doc: PDFDocument, fonts: Fonts, input: SignedPdfInput, facts: { sourceSha256: string; sourcePageCount: number }): void {
  const w = new FlowWriter(doc, fonts, `${input.title} · signing request ${input.requestSimplyId} · certificate of completion`);
  w.text('Certificate of completion', { font: 'bold', size: 16 });
  w.space(4);
  const row = (label: string, value: string, font: keyof Fonts = 'regular') => {
    w.text(label, { font: 'bold', size: 9 });
    w.text(value, { font, size: 9, indent: 12 });
  };
  row('Document', input.title);
  row('Signing request', input.requestSimplyId, 'mono');
  row('Completed at (UTC)', utc(input.completedAt), 'mono');
  row('Consent version', input.consentVersion ?? 'none');
  row('Source document SHA-256', facts.sourceSha256, 'mono');
  row('Source document pages', String(facts.sourcePageCount));
  w.text(
    'The SHA-256 of this signed PDF itself cannot be printed inside it; the platform keeps it on the signing request (completedDocumentSha256). Times are UTC (ISO 8601).',
    { size: 8, color: GREY },
  );
  const anyReplaced = input.signers.some((s) => [s.name, s.typedName, s.email].some((t) => t && needsReplacement(t, fonts.regular)));
  if (anyReplaced) {
    w.text('Some names contain characters the certificate font cannot show; they are printed with replacements ("?"). The original text is in the attached audit-trail.json.', { size: 8, color: GREY });
  }
  w.rule();
  orderedSigners(input.signers).forEach((signer, index) => {
    w.ensure(90);
    w.space(6);
    w.text(`Signer ${index + 1}: ${displayName(signer)}`, { font: 'bold', size: 11 });
    w.text(`Role: ${signer.roleKey} · signing order ${signer.signingOrder}`, { size: 9, indent: 12 });
    w.text(`Name: ${signer.name ?? '—'}`, { size: 9, indent: 12 });
    w.text(`Email: ${signer.email ?? '—'}`, { size: 9, indent: 12 });
    const method = [signer.signatureImagePng?.length ? 'drawn image' : null, signer.typedName ? `typed name "${signer.typedName}"` : null].filter(Boolean).join(' and ');
    w.text(`Signature: ${method || 'none captured'}`, { size: 9, indent: 12 });
    w.text(`Consent version accepted: ${signer.consentVersion ?? '—'}`, { size: 9, indent: 12 });
    w.text('Events:', { font: 'bold', size: 9, indent: 12 });
    const events = [...signer.events].sort((a, b) => a.at.getTime() - b.at.getTime());
    if (events.length === 0) w.text('none recorded', { size: 9, indent: 24 });
    for (const event of events) {
      w.ensure(40);
      w.text(`${utc(event.at)}  ${event.type}`, { font: 'mono', size: 8.5, indent: 24 });
      w.text(`IP address: ${event.ipAddress ?? 'not recorded'}`, { size: 8, indent: 36 });
      w.text(`User agent: ${event.userAgent ?? 'not recorded'}`, { size: 8, indent: 36, color: GREY });
    }
    w.rule();
  });
}
