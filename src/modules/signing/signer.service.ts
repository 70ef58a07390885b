// The signer's side (docs/api/signing-requests.md "Signing as a signer"): everything is reached
// through the token of the emailed link, no credential. Opening the link shows the review fields'
// values and the consent text and records VIEWED; signing or declining moves the request on. Each
// event keeps the caller's IP address and user agent. A link that is unknown, replaced, expired or
// disabled (the request ended) is 404 NOT_FOUND, all alike.
import { onConnection } from '../../app/jobs.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import type { RequestContext, Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { inTransaction } from '../../app/transaction.ts';
import { decodeValue, findRecordsById } from '../../kernel/index.ts';
import { SigningLinkNotFoundError } from './signing.errors.ts';
import { declineInput, IN_FLIGHT, pngBytes, REQUEST_STATUS_WORDS, signInput, type RequestStatus } from './signing.input.ts';
import { dueForInvitation, issueLinks, SIGNING_TOKEN_PREFIX } from './signing-links.ts';
import { originOf, requestTitle } from './signing-requests.service.ts';
import { displayValue, fieldLabel, signerStatusWord } from './signing-views.ts';
import { disableLinks, expireDue, insertEvents, lockRequest, setRequestStatus, signerByTokenHash, signersOf, type RequestRow, type SignerRow } from './signing.sql.ts';
import { completeSigningRequest, COMPLETE_SIGNING, type CompletionJob } from './signing-completion.ts';

export interface SigningSession {
  signingRequestSimplyId: string;
  title: string;
  status: string;
  expiresAt: Date;
  signer: { signingRequestSignerSimplyId: string; roleKey: string; name: string | null; email: string | null; signingOrder: number; status: string; signedAt: Date | null };
  reviewFields: { dataFieldSimplyId: string; label: string; value: string }[];
  consentText: Record<string, string> | null;
  consentVersion: string | null;
  /** false once this signer has signed (the link then only shows the document) */
  canSign: boolean;
}

type Db = Parameters<typeof lockRequest>[0];

/**
 * The request and signer a live link opens, the request locked. Expiry is applied first (and
 * committed), so a link past its request's expiry stops working at once.
 */
async function openLink(services: Services, db: Db, token: string): Promise<{ request: RequestRow; signer: SignerRow }> {
  if (typeof token !== 'string' || !token.startsWith(SIGNING_TOKEN_PREFIX) || token.length > 200) throw new SigningLinkNotFoundError();
  const hash = hashToken(token);
  const found = await signerByTokenHash(db, hash);
  if (!found) throw new SigningLinkNotFoundError();
  const request = await lockRequest(db, { teamId: found.teamId, id: found.signingRequestId });
  // the link may have been replaced or disabled while this call waited for the lock
  const signer = await signerByTokenHash(db, hash);
  if (!request || !signer || !(IN_FLIGHT as readonly string[]).includes(request.status)) throw new SigningLinkNotFoundError();
  if (request.expiresAt.getTime() <= Date.now() || (signer.linkExpiresAt && signer.linkExpiresAt.getTime() <= Date.now())) throw new SigningLinkNotFoundError();
  return { request, signer };
}

async function expireByToken(services: Services, token: string): Promise<void> {
  if (typeof token !== 'string' || !token.startsWith(SIGNING_TOKEN_PREFIX)) return;
  const signer = await signerByTokenHash(services.pool, hashToken(token));
  if (signer) await expireDue(services.pool, { request: { teamId: signer.teamId, id: signer.signingRequestId } });
}

async function sessionOf(services: Services, request: RequestRow, signer: SignerRow, db: Db): Promise<SigningSession> {
  const schema = await services.schemas.get(request.teamId);
  const collection = schema.collectionsById.get(request.sourceCollectionId);
  const [record = null] = await findRecordsById(db, request.teamId, [request.sourceRecordId]);
  const fields = collection ? schema.fieldsOf(collection) : [];
  const reviewFields = request.reviewFieldSimplyIds.map((id) => {
    const field = fields.find((f) => f.dataFieldSimplyId === id);
    return {
      dataFieldSimplyId: id,
      label: field ? fieldLabel(field.title, field.columnName) : id,
      value: field && record ? displayValue(decodeValue(field, record.values[id])) : '',
    };
  });
  return {
    signingRequestSimplyId: request.simplyId,
    title: requestTitle(collection, record),
    status: REQUEST_STATUS_WORDS[request.status as RequestStatus],
    expiresAt: request.expiresAt,
    signer: {
      signingRequestSignerSimplyId: signer.simplyId,
      roleKey: signer.roleKey,
      name: signer.name,
      email: signer.email,
      signingOrder: signer.signingOrder,
      status: signerStatusWord(signer.status),
      signedAt: signer.signedAt,
    },
    reviewFields,
    consentText: request.consentText,
    consentVersion: request.consentVersion,
    canSign: signer.status === 'SENT' || signer.status === 'VIEWED',
  };
}

/** Opening the link: the document to review; the first opening moves the signer (and a sent request) to viewed. */
export async function viewSigningSession(ctx: RequestContext, token: string): Promise<SigningSession> {
  await expireByToken(ctx.services, token);
  return inTransaction(ctx.services.pool, async (db) => {
    const { request, signer } = await openLink(ctx.services, db, token);
    await insertEvents(db, request, [{ signerId: signer.id, eventType: 'VIEWED', ...originOf(ctx) }]);
    if (signer.status === 'SENT') {
      await db.query(`UPDATE "SigningRequestSigner" SET status = 'VIEWED', "updatedAt" = now() WHERE "teamId" = $1 AND id = $2`, [signer.teamId, signer.id]);
      signer.status = 'VIEWED';
    }
    if (request.status === 'SENT') {
      await setRequestStatus(db, request, 'VIEWED');
      request.status = 'VIEWED';
    }
    return sessionOf(ctx.services, request, signer, db);
  });
}

function alreadySigned(): ValidationError {
  return new ValidationError('This signer has already signed', [{ field: 'signingToken', message: 'the signature is already recorded' }]);
}

export async function signSigningRequest(ctx: RequestContext, token: string, raw: unknown): Promise<SigningSession> {
  const input = parseInput(signInput, raw, 'Invalid signature');
  await expireByToken(ctx.services, token);
  const origin = originOf(ctx);
  const outcome = await inTransaction(ctx.services.pool, async (db) => {
    const { request, signer } = await openLink(ctx.services, db, token);
    if (signer.status === 'SIGNED') throw alreadySigned();
    if (request.consentVersion !== null && input.consentVersion !== request.consentVersion) {
      throw new ValidationError('The consent accepted is not the one shown', [{ field: 'consentVersion', message: `must be ${request.consentVersion}, the version of the consent text shown` }]);
    }
    const signedAt = new Date();
    await db.query(
      `UPDATE "SigningRequestSigner" SET status = 'SIGNED', "signedAt" = $2, "typedName" = $3, "signatureImage" = $4, "consentVersionAccepted" = $5, "updatedAt" = now() WHERE "teamId" = $6 AND id = $1`,
      [signer.id, signedAt, input.typedName ?? null, input.signatureImage != null ? pngBytes(input.signatureImage) : null, request.consentVersion, signer.teamId],
    );
    await insertEvents(db, request, [
      { signerId: signer.id, eventType: 'SIGNED', ...origin, detail: { typedName: input.typedName ?? null, drawnSignature: input.signatureImage != null, consentVersion: request.consentVersion } },
    ]);
    const signers = await signersOf(db, request);
    let completed = false;
    if (signers.every((s) => s.status === 'SIGNED')) {
      // conditional: of concurrent last signatures exactly one completes the request
      const { rowCount } = await db.query(
        `UPDATE "SigningRequest" SET status = 'COMPLETED', "completedAt" = now(), "updatedAt" = now() WHERE "teamId" = $3 AND id = $1 AND status = ANY($2::text[])`,
        [request.id, IN_FLIGHT, request.teamId],
      );
      if (rowCount === 1) {
        completed = true;
        await disableLinks(db, request);
        await insertEvents(db, request, [{ signerId: null, eventType: 'COMPLETED', ...origin }]);
        await ctx.services.jobs.boss.send(COMPLETE_SIGNING, { teamId: String(request.teamId), signingRequestId: String(request.id) } satisfies CompletionJob, { db: onConnection(db), retryLimit: 10, retryDelay: 5, retryBackoff: true });
        request.status = 'COMPLETED';
      }
    } else {
      if (request.status !== 'PARTIALLY_SIGNED') {
        await setRequestStatus(db, request, 'PARTIALLY_SIGNED');
        request.status = 'PARTIALLY_SIGNED';
      }
      const due = dueForInvitation(signers);
      if (due.length > 0) {
        const schema = await ctx.services.schemas.get(request.teamId);
        const [record = null] = await findRecordsById(db, request.teamId, [request.sourceRecordId]);
        await issueLinks(ctx.services, db, request, requestTitle(schema.collectionsById.get(request.sourceCollectionId), record), due, origin);
      }
    }
    const mine = signers.find((s) => s.id === signer.id)!;
    return { session: await sessionOf(ctx.services, request, mine, db), completed, request: { teamId: request.teamId, id: request.id } };
  });
  if (outcome.completed) {
    // done at once when it can be; the queued job repeats whatever a crash left undone
    await completeSigningRequest(ctx.services, outcome.request, { wait: false }).catch((error: unknown) => {
      ctx.logger.warn({ err: error, signingRequestId: String(outcome.request.id) }, 'signing completion left to its job');
    });
  }
  return outcome.session;
}

export async function declineSigningRequest(ctx: RequestContext, token: string, raw: unknown): Promise<SigningSession> {
  const input = parseInput(declineInput, raw, 'Invalid decline');
  await expireByToken(ctx.services, token);
  return inTransaction(ctx.services.pool, async (db) => {
    const { request, signer } = await openLink(ctx.services, db, token);
    if (signer.status === 'SIGNED') throw alreadySigned();
    await db.query(`UPDATE "SigningRequestSigner" SET status = 'DECLINED', "declinedAt" = now(), "declineReason" = $2, "updatedAt" = now() WHERE "teamId" = $3 AND id = $1`, [signer.id, input.reason, signer.teamId]);
    await setRequestStatus(db, request, 'DECLINED');
    await disableLinks(db, request);
    await insertEvents(db, request, [{ signerId: signer.id, eventType: 'DECLINED', ...originOf(ctx), detail: { reason: input.reason } }]);
    return sessionOf(ctx.services, { ...request, status: 'DECLINED' }, { ...signer, status: 'DECLINED' }, db);
  });
}
