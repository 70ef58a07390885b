// Signer links: a random token per signer, stored only as its hash, mailed inside a link built from
// the request's signingBaseUrl (or the platform's own signing page). Issuing a link replaces the
// signer's previous one. The mail and, for a signer linked to a constituent record, the history
// row (link masked) are written on the caller's connection, so they exist exactly when the link does.
import type pg from 'pg';
import { hashToken } from '../../app/auth/tokens.ts';
import type { Services } from '../../app/context.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { randomSecret } from '../../app/ids.ts';
import { recordDelivery } from '../communications/index.ts';
import { insertEvents, type RequestRow, type SignerRow } from './signing.sql.ts';

export const SIGNING_TOKEN_PREFIX = 'svc_sgn_';
const TOKEN_PLACEHOLDER = '{token}';

/** Where a link points: `{token}` in the base is replaced; otherwise `token=` is added to its query. */
export function signingLink(services: Services, request: Pick<RequestRow, 'signingBaseUrl'>, token: string): string {
  const base = request.signingBaseUrl ?? `${publicBaseUrl(services)}/v1/signing`;
  if (base.includes(TOKEN_PLACEHOLDER)) return base.replace(TOKEN_PLACEHOLDER, encodeURIComponent(token));
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}

export interface IssuedLink {
  signer: SignerRow;
  linkIssuedAt: Date;
  linkExpiresAt: Date;
}

export interface Origin {
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * Issues a fresh link to each signer (status SENT), mails it and records a SENT event per signer
 * (`resend: true` in its detail when it replaces an earlier link of the signer).
 */
export async function issueLinks(services: Services, db: pg.PoolClient, request: RequestRow, title: string, signers: readonly SignerRow[], origin: Origin): Promise<IssuedLink[]> {
  const issued: IssuedLink[] = [];
  const issuedAt = new Date();
  for (const signer of signers) {
    const token = `${SIGNING_TOKEN_PREFIX}${randomSecret()}`;
    await db.query(
      `UPDATE "SigningRequestSigner" SET "linkTokenHash" = $2, "linkIssuedAt" = $3, "linkExpiresAt" = $4, status = 'SENT', "updatedAt" = now() WHERE "teamId" = $5 AND id = $1`,
      [signer.id, hashToken(token), issuedAt, request.expiresAt, request.teamId],
    );
    const link = signingLink(services, request, token);
    const greeting = signer.name ? `Hello ${signer.name},` : 'Hello,';
    const subject = `Please review and sign: ${title}`.slice(0, 250);
    const text = [
      greeting,
      '',
      `you are asked to review and sign "${title}".`,
      '',
      'Open this link to read the document and sign or decline it. The link is personal to you: do not forward it.',
      link,
      '',
      `The link works until ${request.expiresAt.toISOString()}.`,
    ].join('\n');
    const mail = await services.mail.enqueue({ teamId: request.teamId, to: [signer.email!], subject, text, source: 'SIGNING', sourceId: request.simplyId, withheld: true }, db);
    if (signer.linkedConstituentRecordId !== null) {
      await recordDelivery(db, {
        teamId: request.teamId,
        dataRecordId: signer.linkedConstituentRecordId,
        sourceType: 'SYSTEM',
        sourceSimplyId: request.simplyId,
        channelId: 'EMAIL',
        mailMessageId: mail.id,
        destination: signer.email!,
        subject,
        text,
        secrets: [token, link],
      });
    }
    issued.push({ signer: { ...signer, status: 'SENT', linkIssuedAt: issuedAt, linkExpiresAt: request.expiresAt }, linkIssuedAt: issuedAt, linkExpiresAt: request.expiresAt });
  }
  await insertEvents(
    db,
    request,
    signers.map((s) => ({ signerId: s.id, eventType: 'SENT', ipAddress: origin.ipAddress, userAgent: origin.userAgent, detail: s.linkIssuedAt !== null ? { resend: true } : null })),
  );
  return issued;
}

/**
 * The signers whose turn has come and who have no link yet: the WAITING ones of the lowest
 * signing order that still has an unsigned signer. Equal orders sign in parallel; a higher order
 * waits until every lower one has signed.
 */
export function dueForInvitation(signers: readonly SignerRow[]): SignerRow[] {
  const unsigned = signers.filter((s) => s.status !== 'SIGNED');
  if (unsigned.length === 0) return [];
  const order = Math.min(...unsigned.map((s) => s.signingOrder));
  return unsigned.filter((s) => s.signingOrder === order && s.status === 'WAITING');
}

/** The unsigned signers whose turn has come (invited or about to be). */
export function currentTurn(signers: readonly SignerRow[]): SignerRow[] {
  const unsigned = signers.filter((s) => s.status !== 'SIGNED');
  if (unsigned.length === 0) return [];
  const order = Math.min(...unsigned.map((s) => s.signingOrder));
  return unsigned.filter((s) => s.signingOrder === order);
}
