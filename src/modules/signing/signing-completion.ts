// What follows the last signature (docs/api/signing-requests.md "Completion"). The request moved
// to COMPLETED in the signing transaction, which also queued COMPLETE_SIGNING; this step then
//   1. writes the signature fields back to the source record through the records service (audited,
//      evented, so webhooks and automations see it), acting as the request's signing link;
//   2. with a file target, builds the signed PDF and stores it as a new version of the target file.
// Each step is idempotent, so the inline run after the signature and the job (retried by pg-boss
// after a crash) together do it exactly once: the write-back is marked by a FIELDS_WRITTEN event
// (writing the same values again changes nothing and fires nothing), the PDF by the request's
// signedFileVersionNumber (the PDF's bytes are a function of the request, and the files module
// answers an identical version already stored instead of storing it twice). A session-level
// advisory lock keeps two runs of one request from overlapping.
import { LOCK_NAMESPACES } from '../../db/advisory-locks.ts';
import type { Principal } from '../../app/auth/principal.ts';
import { systemContext, type Services } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { fieldValueWithFile, readFileVersionBytes, storeGeneratedFileVersion } from '../files/index.ts';
import { decodeValue, findRecordsById, type StoredRecord, updateRecordsById } from '../../kernel/index.ts';
import type { SignedPdfInput } from './signed-pdf/signed-pdf.types.ts';
import { requestTitle } from './signing-requests.service.ts';
import { displayValue, fieldLabel } from './signing-views.ts';
import { expireDue, findRequestById, insertEvents, signersOf, type RequestKey, type RequestRow, type SignerRow } from './signing.sql.ts';

export const COMPLETE_SIGNING = 'signing.complete';
export const EXPIRE_SIGNING = 'signing.expire';

export interface CompletionJob {
  teamId: string;
  signingRequestId: string;
}

/** A session-level lock (it spans the completion's commits), in its namespace of src/db/advisory-locks.ts. */
const LOCK_CLASS = LOCK_NAMESPACES.signingCompletion;

/** Who writes the signatures back: the request's signing link, with edit access to its team's records. */
function signingPrincipal(request: RequestRow, teamSimplyId: string): Principal {
  return {
    kind: 'PUBLIC_LINK',
    credentialId: request.simplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: null,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team: { id: request.teamId, simplyId: teamSimplyId, name: '' },
    teamError: null,
    features: new Map(),
    scopes: null,
    data: { full: 'EDIT', collections: new Map([['*', new Set(['READ', 'EDIT'] as const)]]), fields: new Map() },
    teamRoleSimplyId: null,
    expiresAt: null,
  };
}

/** What each signature field receives (a text field: one line per signer). */
function signatureValue(dataType: string, request: RequestRow, signers: readonly SignerRow[]): unknown {
  const completedAt = request.completedAt ?? new Date();
  switch (dataType) {
    case 'DATE':
      return completedAt.toISOString().slice(0, 10);
    case 'DATE_TIME':
      return completedAt.toISOString();
    case 'BOOLEAN':
      return true;
    default:
      return signers
        .map((s) => `${s.typedName ?? s.name ?? s.email ?? s.roleKey} (${s.roleKey}) signed electronically on ${s.signedAt?.toISOString() ?? completedAt.toISOString()}`)
        .join('\n');
  }
}

export interface CompletionOptions {
  /** true (the job): wait for a run in progress elsewhere and then check; false (inline): leave it to that run */
  wait: boolean;
}

export async function completeSigningRequest(services: Services, key: RequestKey, options: CompletionOptions): Promise<void> {
  const client = await services.pool.connect();
  let locked = false;
  try {
    const lockKey = Number(key.id % 2_147_483_647n);
    if (options.wait) {
      await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, lockKey]);
      locked = true;
    } else {
      locked = (await client.query('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_CLASS, lockKey])).rows[0].ok === true;
      if (!locked) return;
    }
    const request = await findRequestById(services.pool, key);
    if (!request || request.status !== 'COMPLETED') return;
    const signers = await signersOf(services.pool, request);
    const team = await services.prisma.team.findUniqueOrThrow({ where: { id: request.teamId }, select: { simplyId: true } });
    const ctx = systemContext(services, signingPrincipal(request, team.simplyId), `signing:${request.simplyId}`);
    const done = new Set((await services.pool.query(`SELECT "eventType" FROM "SigningRequestEvent" WHERE "teamId" = $1 AND "signingRequestId" = $2`, [request.teamId, request.id])).rows.map((r) => r.eventType as string));
    const schema = await services.schemas.get(request.teamId);
    const collection = schema.collectionsById.get(request.sourceCollectionId);
    const [record = null] = await findRecordsById(services.pool, request.teamId, [request.sourceRecordId]);

    if (request.signatureFieldSimplyIds.length > 0 && !done.has('FIELDS_WRITTEN') && !done.has('FIELDS_WRITE_FAILED')) {
      const fields = collection ? schema.fieldsOf(collection) : [];
      const values = Object.fromEntries(
        request.signatureFieldSimplyIds.flatMap((id) => {
          const field = fields.find((f) => f.dataFieldSimplyId === id);
          return field ? [[id, signatureValue(field.dataType, request, signers)]] : [];
        }),
      );
      try {
        await updateRecordsById(ctx, [{ dataRecordSimplyId: record?.simplyId ?? '', fields: values }], { batch: false, source: 'SIGNING' });
        await insertEventsOnPool(services, request, 'FIELDS_WRITTEN', { dataFieldSimplyIds: Object.keys(values) });
      } catch (error) {
        // the record or its fields changed since the request was made (deleted, retyped): a retry cannot help
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        await insertEventsOnPool(services, request, 'FIELDS_WRITE_FAILED', { code: error.code, message: error.message });
      }
    }

    const target = request.fileTarget;
    if (target && request.signedFileVersionNumber === null && !done.has('DOCUMENT_FAILED')) {
      try {
        await storeSignedPdf(services, ctx, request, signers, schema, collection, record, target);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        await insertEventsOnPool(services, request, 'DOCUMENT_FAILED', { code: error.code, message: error.message });
      }
    }
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, Number(key.id % 2_147_483_647n)]).catch(() => {});
    client.release();
  }
}

async function insertEventsOnPool(services: Services, request: RequestRow, eventType: string, detail: Record<string, unknown>): Promise<void> {
  const client = await services.pool.connect();
  try {
    await insertEvents(client, request, [{ signerId: null, eventType, detail }]);
  } finally {
    client.release();
  }
}

async function storeSignedPdf(
  services: Services,
  ctx: ReturnType<typeof systemContext>,
  request: RequestRow,
  signers: readonly SignerRow[],
  schema: Awaited<ReturnType<Services['schemas']['get']>>,
  collection: ReturnType<Awaited<ReturnType<Services['schemas']['get']>>['collectionsById']['get']>,
  record: StoredRecord | null,
  target: NonNullable<RequestRow['fileTarget']>,
): Promise<void> {
  const fields = collection ? schema.fieldsOf(collection) : [];
  let source: SignedPdfInput['source'];
  if (target.fileSimplyId) {
    const file = await readFileVersionBytes(services, request.teamId, target.fileSimplyId, target.sourceFileVersionNumber ?? undefined);
    source = { pdf: file.bytes };
  } else {
    source = {
      reviewFields: request.reviewFieldSimplyIds.map((id) => {
        const field = fields.find((f) => f.dataFieldSimplyId === id);
        return { label: field ? fieldLabel(field.title, field.columnName) : id, value: field && record ? displayValue(decodeValue(field, record.values[id])) : '' };
      }),
    };
  }
  const { rows: events } = await services.pool.query(
    `SELECT "signerId", "eventType", "ipAddress", "userAgent", "occurredAt" FROM "SigningRequestEvent" WHERE "teamId" = $1 AND "signingRequestId" = $2 AND "signerId" IS NOT NULL ORDER BY id`,
    [request.teamId, request.id],
  );
  const title = requestTitle(collection, record);
  // pdf-lib is loaded by the first completion, not at start
  const { buildSignedPdf } = await import('./signed-pdf/signed-pdf.ts');
  const pdf = await buildSignedPdf({
    title,
    requestSimplyId: request.simplyId,
    source,
    consentVersion: request.consentVersion,
    completedAt: request.completedAt!,
    signers: signers.map((s) => ({
      name: s.name ?? s.typedName ?? s.email ?? s.roleKey,
      email: s.email,
      roleKey: s.roleKey,
      signingOrder: s.signingOrder,
      typedName: s.typedName,
      signatureImagePng: s.signatureImage,
      consentVersion: s.consentVersionAccepted,
      events: events
        .filter((e) => String(e.signerId) === String(s.id))
        .map((e) => ({ type: e.eventType as string, at: e.occurredAt as Date, ipAddress: e.ipAddress as string | null, userAgent: e.userAgent as string | null })),
    })),
  });
  const fileField = fields.find((f) => f.dataFieldSimplyId === target.fileFieldSimplyId);
  const stored = await storeGeneratedFileVersion(services, {
    teamId: request.teamId,
    dataRecordId: request.sourceRecordId,
    fileFieldSimplyId: target.fileFieldSimplyId,
    fileSimplyId: target.fileSimplyId ?? null,
    filename: `${title.replace(/[^\p{L}\p{N} ._-]+/gu, ' ').trim().slice(0, 100) || 'document'} (signed).pdf`,
    contentType: 'application/pdf',
    bytes: pdf.pdf,
  });
  // a new file is attached to the target field through the records service, like any field write
  if (!target.fileSimplyId && fileField && record) {
    const value = fieldValueWithFile(record.values[target.fileFieldSimplyId], fileField.dataType as 'SINGLE_FILE' | 'MULTI_FILE', stored.fileSimplyId);
    await updateRecordsById(ctx, [{ dataRecordSimplyId: record.simplyId, fields: { [target.fileFieldSimplyId]: value } }], { batch: false, source: 'SIGNING' });
  }
  const client = await services.pool.connect();
  try {
    await client.query('BEGIN');
    const { rowCount } = await client.query(
      `UPDATE "SigningRequest" SET "signedFileId" = (SELECT id FROM "StoredFile" WHERE "teamId" = $2 AND "simplyId" = $3), "signedFileVersionNumber" = $4,
         "sourceDocumentSha256" = $5, "completedDocumentSha256" = $6, "updatedAt" = now()
       WHERE id = $1 AND "signedFileVersionNumber" IS NULL`,
      [request.id, request.teamId, stored.fileSimplyId, stored.versionNumber, pdf.sourceSha256, pdf.sha256],
    );
    if (rowCount === 1) {
      await insertEvents(client, request, [{ signerId: null, eventType: 'DOCUMENT_STORED', detail: { fileSimplyId: stored.fileSimplyId, versionNumber: stored.versionNumber, sha256: pdf.sha256, pageCount: pdf.pageCount } }]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export function signingJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: COMPLETE_SIGNING,
      retryLimit: 10,
      handler: async (jobs) => {
        for (const job of jobs as unknown as { data: CompletionJob }[]) {
          await completeSigningRequest(services, { teamId: BigInt(job.data.teamId), id: BigInt(job.data.signingRequestId) }, { wait: true });
        }
      },
    },
    {
      // links stop working at expiry anyway (each use checks it); the sweep moves the requests so lists and webhooks-to-come see them expired
      name: EXPIRE_SIGNING,
      schedule: '* * * * *',
      handler: async () => {
        await expireDue(services.pool);
      },
    },
  ] as JobDefinition<never>[];
}
