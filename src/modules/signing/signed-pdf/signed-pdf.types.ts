// What a signed PDF is made from, and what comes out: apart from the builder (signed-pdf.ts), so
// that the page writers it calls can name them without importing it.
export interface SignedPdfEvent {
  type: string;
  at: Date;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface SignedPdfSigner {
  name: string;
  email: string | null;
  roleKey: string;
  signingOrder: number;
  typedName: string | null;
  signatureImagePng: Buffer | null;
  consentVersion: string | null;
  events: SignedPdfEvent[];
}

export type SignedPdfInput = {
  title: string;
  requestSimplyId: string;
  source: { pdf: Buffer } | { reviewFields: { label: string; value: string }[] };
  signers: SignedPdfSigner[];
  consentVersion: string | null;
  completedAt: Date;
};

export type SignedPdf = { pdf: Buffer; sourceSha256: string; sha256: string; pageCount: number };
