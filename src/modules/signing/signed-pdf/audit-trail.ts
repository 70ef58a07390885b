// The certificate's facts in machine-readable form, attached to the PDF as audit-trail.json: the
// full Unicode text of every name (also of characters the embedded fonts cannot draw), and
// something a verifier can read without parsing page text.
import type { PDFDocument } from 'pdf-lib';
import { orderedSigners } from './certificate.ts';
import type { SignedPdfInput } from './signed-pdf.types.ts';

export const AUDIT_TRAIL_NAME = 'audit-trail.json';

export async function attachAuditTrail(doc: PDFDocument, input: SignedPdfInput, sourceSha256: string): Promise<void> {
  const trail = {
    title: input.title,
    signingRequestSimplyId: input.requestSimplyId,
    completedAt: input.completedAt.toISOString(),
    consentVersion: input.consentVersion,
    sourceDocumentSha256: sourceSha256,
    signers: orderedSigners(input.signers).map((s) => ({
      roleKey: s.roleKey,
      signingOrder: s.signingOrder,
      name: s.name,
      email: s.email,
      typedName: s.typedName,
      drawnSignature: Boolean(s.signatureImagePng?.length),
      consentVersion: s.consentVersion,
      events: s.events.map((e) => ({ type: e.type, at: e.at.toISOString(), ipAddress: e.ipAddress, userAgent: e.userAgent })),
    })),
  };
  await doc.attach(Buffer.from(JSON.stringify(trail, null, 2)), AUDIT_TRAIL_NAME, {
    mimeType: 'application/json',
    description: 'Signing audit trail',
    // fixed dates keep the output a function of its input (a retried completion gives the same bytes)
    creationDate: input.completedAt,
    modificationDate: input.completedAt,
  });
}
