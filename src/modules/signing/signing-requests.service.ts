// The team side of signing requests (docs/api/signing-requests.md): create, list, read, resend and
// void. Reads need read access to the source collection (and records:read for scoped tokens),
// writes update access (and records:write); a request whose collection the caller cannot read is
// 404 like a missing one. Every state move locks the request row, so moves of one request take turns.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { membershipId } from '../../app/ids.ts';
import { pagination, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { inTransaction } from '../../app/transaction.ts';
import {
  accessTo,
  type CollectionDefinition,
  decodeValue,
  findRecords,
  findRecordsById,
  parseEmail,
  type RecordRow,
  requireRecordCredential,
  type TeamSchema,
} from '../../kernel/index.ts';
import { assess, findTemplate } from '../content-templates/index.ts';
import { SigningRequestClosedError } from './signing.errors.ts';
import { signingRequestId, signingSignerId } from './signing.ids.ts';
import {
  createSigningRequestInput,
  REQUEST_STATUS_WORDS,
  resendSigningRequestInput,
  TERMINAL,
  voidSigningRequestInput,
  type RequestStatus,
} from './signing.input.ts';
import { defaultExpirationDays } from './signing-settings.service.ts';
import { currentTurn, dueForInvitation, issueLinks, type Origin } from './signing-links.ts';
import { displayValue, loadViews, signersOfMany, type RequestView } from './signing-views.ts';
import {
  disableLinks,
  expireDue,
  findRequestBySimplyId,
  insertEvents,
  insertRequest,
  insertSigners,
  lockRequest,
  requestOf,
  setRequestStatus,
  signersOf,
  type RequestRow,
  type SignerDraft,
} from './signing.sql.ts';

/** Field types a signature is written into at completion (what each receives: docs "Completion"). */
export const SIGNATURE_FIELD_TYPES = ['PLAIN_TEXT', 'DATE', 'DATE_TIME', 'BOOLEAN'] as const;
const FILE_FIELD_TYPES = ['SINGLE_FILE', 'MULTI_FILE'];

export const originOf = (ctx: RequestContext): Origin => ({ ipAddress: ctx.clientIp || null, userAgent: ctx.userAgent ?? null });

/** The title signers see (mail subject, signing page, PDF): the record's name, after its collection's singular name. */
export function requestTitle(collection: CollectionDefinition | undefined, record: Pick<RecordRow, 'calculatedName' | 'simplyId'> | null): string {
  const name = record?.calculatedName?.trim();
  const singular = collection?.singularName;
  const label = displayValue(singular && typeof singular === 'object' ? Object.values(singular)[0] : singular).trim();
  return name ? (label ? `${label}: ${name}` : name) : `Record ${record?.simplyId ?? ''}`.trim();
}

/** The source collection as the caller sees it: missing or unreadable is 404, readable but not editable (for a write) 403. */
function visibleCollection(ctx: RequestContext, schema: TeamSchema, collectionId: bigint | string, level: 'READ' | 'EDIT', label = 'Signing request', id?: string): CollectionDefinition {
  const collection = typeof collectionId === 'bigint' ? schema.collectionsById.get(collectionId) : schema.collectionsBySimplyId.get(collectionId);
  if (!collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) throw new NotFoundError(label, id ?? String(collectionId));
  if (level === 'EDIT' && !hasDataAccess(ctx.principal, collection.simplyId, 'EDIT')) {
    throw new PermissionDeniedError(`The credential's team role cannot edit records of collection ${collection.simplyId}`);
  }
  return collection;
}

/** The request of the caller's team, visible through its source collection; 404 otherwise. */
async function findVisible(ctx: RequestContext, simplyId: string, level: 'READ' | 'EDIT'): Promise<{ row: RequestRow; schema: TeamSchema }> {
  const team = requireTeam(ctx);
  signingRequestId.assert(simplyId, 'signingRequestSimplyId');
  requireRecordCredential(ctx.principal, level);
  const [schema, row] = await Promise.all([ctx.services.schemas.get(team.id), findRequestBySimplyId(ctx.services.pool, team.id, simplyId)]);
  if (!row) throw new NotFoundError('Signing request', simplyId);
  visibleCollection(ctx, schema, row.sourceCollectionId, level, 'Signing request', simplyId);
  return { row, schema };
}

async function viewOf(ctx: RequestContext, schema: TeamSchema, row: RequestRow): Promise<RequestView> {
  const signers = await signersOf(ctx.services.pool, row);
  return (await loadViews(ctx.services.pool, schema, [row], signers))[0]!;
}

export async function getSigningRequest(ctx: RequestContext, simplyId: string): Promise<RequestView> {
  const found = await findVisible(ctx, simplyId, 'READ');
  // expiry is applied when it is read, besides the periodic sweep
  if (await expireDue(ctx.services.pool, { request: found.row })) found.row = (await findRequestBySimplyId(ctx.services.pool, found.row.teamId, simplyId))!;
  return viewOf(ctx, found.schema, found.row);
}

export interface ListSigningRequestsArgs {
  limit?: number | null;
  offset?: number | null;
  status?: string | null;
  sourceDataCollectionSimplyId?: string | null;
  sourceDataRecordSimplyId?: string | null;
  signingProfileSimplyId?: string | null;
}

const STATUS_BY_WORD = new Map<string, RequestStatus>(Object.entries(REQUEST_STATUS_WORDS).flatMap(([stored, word]) => [[word.toLowerCase(), stored as RequestStatus], [stored.toLowerCase(), stored as RequestStatus]]));

/** Requests on records of collections the caller may read, newest first. */
export async function listSigningRequests(ctx: RequestContext, args: ListSigningRequestsArgs): Promise<Page<RequestView>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  requireRecordCredential(ctx.principal, 'READ');
  const schema = await ctx.services.schemas.get(team.id);
  let status: RequestStatus | null = null;
  if (args.status != null) {
    status = STATUS_BY_WORD.get(args.status.toLowerCase()) ?? null;
    if (!status) throw new ValidationError('Unknown status', [{ field: 'status', message: `must be one of ${Object.values(REQUEST_STATUS_WORDS).join(', ')}` }]);
  }
  let collections = [...schema.collectionsById.values()].filter((c) => hasDataAccess(ctx.principal, c.simplyId, 'READ')).map((c) => c.id);
  if (args.sourceDataCollectionSimplyId != null) {
    const collection = visibleCollection(ctx, schema, args.sourceDataCollectionSimplyId, 'READ', 'Data collection', args.sourceDataCollectionSimplyId);
    collections = [collection.id];
  }
  let recordId: bigint | null = null;
  if (args.sourceDataRecordSimplyId != null) {
    const [record] = /^[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/.test(args.sourceDataRecordSimplyId) ? await findRecords(ctx.services.pool, team.id, [args.sourceDataRecordSimplyId]) : [];
    const home = record && schema.collectionsById.get(record.collectionId);
    if (!record || !home || !hasDataAccess(ctx.principal, home.simplyId, 'READ')) throw new NotFoundError('Data record', args.sourceDataRecordSimplyId);
    recordId = record.id;
  }
  await expireDue(ctx.services.pool, { teamId: team.id });
  const where = `"teamId" = $1 AND "sourceCollectionId" = ANY($2::bigint[]) AND ($3::text IS NULL OR status = $3) AND ($4::bigint IS NULL OR "sourceRecordId" = $4) AND ($5::text IS NULL OR "signingProfileSimplyId" = $5)`;
  const values = [team.id, collections.map(String), status, recordId, args.signingProfileSimplyId ?? null];
  const [{ rows }, { rows: counted }] = await Promise.all([
    ctx.services.pool.query(`SELECT * FROM "SigningRequest" WHERE ${where} ORDER BY "createdAt" DESC, id DESC LIMIT $6 OFFSET $7`, [...values, paging.limit, paging.offset]),
    ctx.services.pool.query(`SELECT count(*)::int AS n FROM "SigningRequest" WHERE ${where}`, values),
  ]);
  const requests = rows.map(requestOf);
  const signers = await signersOfMany(ctx.services.pool, requests.map((r) => r.id));
  return { nodes: await loadViews(ctx.services.pool, schema, requests, signers), pagination: pagination(counted[0].n as number, paging) };
}

// ------------------------------------------------------------------------------------------
// Create

function fieldIssue(field: string, message: string): ValidationError {
  return new ValidationError(`Invalid signing request: ${field} ${message}`, [{ field, message }]);
}

/** A record of the team the caller may read (404 otherwise), and its collection. */
async function readableRecord(ctx: RequestContext, schema: TeamSchema, simplyId: string): Promise<{ record: RecordRow; collection: CollectionDefinition }> {
  const [record] = await findRecords(ctx.services.pool, schema.teamId, [simplyId]);
  const collection = record && schema.collectionsById.get(record.collectionId);
  if (!record || !collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) throw new NotFoundError('Data record', simplyId);
  return { record, collection };
}

/** A signer's name or email read from a field of a record the caller may read. */
function valueFromField(ctx: RequestContext, schema: TeamSchema, record: RecordRow, collection: CollectionDefinition, fieldSimplyId: string, path: string): string | null {
  const access = accessTo(ctx.principal, schema, collection);
  const field = access.fields.find((f) => f.dataFieldSimplyId === fieldSimplyId);
  if (!field) throw fieldIssue(path, `is not a field of collection ${collection.simplyId}`);
  if (!access.readable.some((f) => f.dataFieldSimplyId === fieldSimplyId)) throw new PermissionDeniedError(`The credential's team role cannot read field ${fieldSimplyId}`);
  const value = displayValue(decodeValue(field, record.values[fieldSimplyId])).trim();
  return value === '' ? null : value;
}

export async function createSigningRequest(ctx: RequestContext, raw: unknown): Promise<RequestView> {
  const team = requireTeam(ctx);
  const input = parseInput(createSigningRequestInput, raw, 'Invalid signing request');
  requireRecordCredential(ctx.principal, 'EDIT');
  const schema = await ctx.services.schemas.get(team.id);
  const collection = visibleCollection(ctx, schema, input.sourceDataCollectionSimplyId, 'EDIT', 'Data collection', input.sourceDataCollectionSimplyId);
  const [record] = await findRecords(ctx.services.pool, team.id, [input.sourceDataRecordSimplyId]);
  if (!record || record.collectionId !== collection.id) throw new NotFoundError('Data record', input.sourceDataRecordSimplyId);
  const access = accessTo(ctx.principal, schema, collection);
  const fields = new Map(access.fields.map((f) => [f.dataFieldSimplyId, f]));
  const readable = new Set(access.readable.map((f) => f.dataFieldSimplyId));

  const details: ErrorDetail[] = [];
  input.reviewFieldSimplyIds.forEach((id, i) => {
    if (!fields.has(id)) details.push({ field: `reviewFieldSimplyIds[${i}]`, message: `is not a field of collection ${collection.simplyId}` });
  });
  const signatureFields = input.signatureFieldSimplyIds ?? [];
  signatureFields.forEach((id, i) => {
    const field = fields.get(id);
    if (!field) details.push({ field: `signatureFieldSimplyIds[${i}]`, message: `is not a field of collection ${collection.simplyId}` });
    else if (!(SIGNATURE_FIELD_TYPES as readonly string[]).includes(field.dataType)) {
      details.push({ field: `signatureFieldSimplyIds[${i}]`, message: `is a ${field.dataType} field; signatures are written into ${SIGNATURE_FIELD_TYPES.join(', ')} fields` });
    }
  });
  if (new Set(signatureFields).size !== signatureFields.length) details.push({ field: 'signatureFieldSimplyIds', message: 'lists a field twice' });
  const fileField = input.fileTarget?.fileFieldSimplyId ? fields.get(input.fileTarget.fileFieldSimplyId) : undefined;
  if (input.fileTarget && !fileField) details.push({ field: 'fileTarget.fileFieldSimplyId', message: `is not a field of collection ${collection.simplyId}` });
  else if (fileField && !FILE_FIELD_TYPES.includes(fileField.dataType)) details.push({ field: 'fileTarget.fileFieldSimplyId', message: `is a ${fileField.dataType} field; the signed PDF goes into a SINGLE_FILE or MULTI_FILE field` });
  if (details.length > 0) throw new ValidationError('Invalid signing request', details);
  for (const id of input.reviewFieldSimplyIds) if (!readable.has(id)) throw new PermissionDeniedError(`The credential's team role cannot read review field ${id}`);
  for (const id of signatureFields) if (!access.editable.has(id)) throw new PermissionDeniedError(`The credential's team role cannot update signature field ${id}`);
  if (fileField && !access.editable.has(fileField.dataFieldSimplyId)) throw new PermissionDeniedError(`The credential's team role cannot update file field ${fileField.dataFieldSimplyId}`);

  let contentTemplateId: bigint | null = null;
  if (input.contentTemplateSimplyId != null) {
    const template = await findTemplate(ctx, input.contentTemplateSimplyId, 'VIEW');
    const blocking = assess(template.row, template.schema).filter((i) => i.severity === 'BLOCKING');
    if (blocking.length > 0) {
      throw new ValidationError(
        `Content template ${input.contentTemplateSimplyId} is not ready for signing: ${blocking.map((b) => b.message).join('; ')}`,
        blocking.map((b) => ({ field: 'contentTemplateSimplyId', message: `${b.code}: ${b.message}` })),
      );
    }
    contentTemplateId = template.row.id;
  }

  const drafts: SignerDraft[] = [];
  for (const [i, s] of input.signers.entries()) {
    const path = `signers[${i}]`;
    let linked: { record: RecordRow; collection: CollectionDefinition } | null = null;
    if (s.linkedConstituentDataRecordSimplyId != null) {
      linked = await readableRecord(ctx, schema, s.linkedConstituentDataRecordSimplyId);
      if (s.linkedConstituentDataCollectionSimplyId != null && linked.collection.simplyId !== s.linkedConstituentDataCollectionSimplyId) {
        throw new NotFoundError('Data record', `${s.linkedConstituentDataRecordSimplyId} in collection ${s.linkedConstituentDataCollectionSimplyId}`);
      }
    }
    // name and email fields are read from the signer's own record when linked, else from the source record
    const from = linked ?? { record, collection };
    const name = s.nameFieldSimplyId != null ? valueFromField(ctx, schema, from.record, from.collection, s.nameFieldSimplyId, `${path}.nameFieldSimplyId`) : (s.name ?? null);
    const rawEmail = s.emailFieldSimplyId != null ? valueFromField(ctx, schema, from.record, from.collection, s.emailFieldSimplyId, `${path}.emailFieldSimplyId`) : (s.email ?? null);
    const emailPath = s.emailFieldSimplyId != null ? `${path}.emailFieldSimplyId` : `${path}.email`;
    if (rawEmail === null) throw fieldIssue(emailPath, 'gives no email address (the invitation is mailed)');
    const email = parseEmail(rawEmail);
    if (!email.ok) throw fieldIssue(emailPath, `is not a usable email address: ${email.message}`);
    if (s.internalTeamUserLinkSimplyId != null) {
      membershipId.assert(s.internalTeamUserLinkSimplyId, `${path}.internalTeamUserLinkSimplyId`);
      const member = await ctx.services.prisma.teamMembership.findFirst({ where: { teamId: team.id, simplyId: s.internalTeamUserLinkSimplyId }, select: { id: true } });
      if (!member) throw new NotFoundError('Team membership', s.internalTeamUserLinkSimplyId);
    }
    drafts.push({
      simplyId: signingSignerId.create(),
      roleKey: s.roleKey,
      name,
      email: email.value,
      signingOrder: s.signingOrder ?? 1,
      internalTeamUserLinkSimplyId: s.internalTeamUserLinkSimplyId ?? null,
      linkedConstituentRecordId: linked?.record.id ?? null,
    });
  }

  // neither given: the team's default expiry, else the platform's (docs "Default expiry")
  const days = input.expiresAt != null ? null : (input.expirationDays ?? (await defaultExpirationDays(ctx.services, team.id)));
  const expiresAt = input.expiresAt != null ? new Date(input.expiresAt) : new Date(Date.now() + days! * 86_400_000);
  const send = input.sendImmediately ?? true;
  const title = requestTitle(collection, record);
  const origin = originOf(ctx);
  const row = await inTransaction(ctx.services.pool, async (db) => {
    const request = await insertRequest(db, {
      simplyId: signingRequestId.create(),
      teamId: team.id,
      status: send ? 'SENT' : 'CREATED',
      sourceCollectionId: collection.id,
      sourceRecordId: record.id,
      reviewFieldSimplyIds: input.reviewFieldSimplyIds,
      signatureFieldSimplyIds: signatureFields,
      fileTarget: input.fileTarget ? { fileFieldSimplyId: input.fileTarget.fileFieldSimplyId!, fileSimplyId: input.fileTarget.fileSimplyId ?? null, sourceFileVersionNumber: input.fileTarget.sourceFileVersionNumber ?? null } : null,
      signingProfileSimplyId: input.signingProfileSimplyId ?? null,
      signingWizardSimplyId: input.signingWizardSimplyId ?? null,
      contentTemplateId,
      consentText: input.consentText ?? null,
      consentVersion: input.consentVersion ?? null,
      signingBaseUrl: input.signingBaseUrl ?? null,
      expiresAt,
      createdByKind: ctx.principal.kind,
      createdById: ctx.principal.credentialId,
    });
    const signers = await insertSigners(db, request, drafts);
    await insertEvents(db, request, [{ signerId: null, eventType: 'CREATED', ...origin }]);
    if (send) await issueLinks(ctx.services, db, request, title, dueForInvitation(signers), origin);
    return request;
  });
  return viewOf(ctx, schema, row);
}

// ------------------------------------------------------------------------------------------
// Resend and void

/** A terminal request refuses the action (400); an in-flight one past its expiry is expired first. */
async function lockInFlight(db: Parameters<typeof lockRequest>[0], row: RequestRow): Promise<RequestRow> {
  const locked = (await lockRequest(db, row))!;
  if ((TERMINAL as readonly string[]).includes(locked.status)) throw new SigningRequestClosedError(locked.simplyId, REQUEST_STATUS_WORDS[locked.status as RequestStatus]);
  return locked;
}

export interface ResendResult {
  signingRequestSimplyId: string;
  status: string;
  resentSignerSimplyIds: string[];
  links: { signingRequestSignerSimplyId: string; email: string | null; linkIssuedAt: Date; linkExpiresAt: Date }[];
}

export async function resendSigningRequest(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ResendResult> {
  const { row, schema } = await findVisible(ctx, simplyId, 'EDIT');
  const input = parseInput(resendSigningRequestInput, raw ?? {}, 'Invalid resend');
  await expireDue(ctx.services.pool, { request: row });
  const origin = originOf(ctx);
  const [record = null] = await findRecordsById(ctx.services.pool, row.teamId, [row.sourceRecordId]);
  const title = requestTitle(schema.collectionsById.get(row.sourceCollectionId), record);
  return inTransaction(ctx.services.pool, async (db) => {
    const request = await lockInFlight(db, row);
    const signers = await signersOf(db, request);
    const turn = currentTurn(signers);
    let targets = turn;
    if (input.signingRequestSignerSimplyIds != null) {
      const details: ErrorDetail[] = [];
      targets = [];
      input.signingRequestSignerSimplyIds.forEach((id, i) => {
        const field = `signingRequestSignerSimplyIds[${i}]`;
        const signer = signers.find((s) => s.simplyId === id);
        if (!signer) details.push({ field, message: `is not a signer of ${request.simplyId}` });
        else if (signer.status === 'SIGNED') details.push({ field, message: 'has already signed' });
        else if (!turn.includes(signer)) details.push({ field, message: 'waits for the signers of a lower signingOrder; they are invited when those have signed' });
        else if (!targets.includes(signer)) targets.push(signer);
      });
      if (details.length > 0) throw new ValidationError('These signers cannot be sent a link', details);
    }
    if (input.signingBaseUrl != null) {
      await db.query(`UPDATE "SigningRequest" SET "signingBaseUrl" = $2, "updatedAt" = now() WHERE id = $1`, [request.id, input.signingBaseUrl]);
      request.signingBaseUrl = input.signingBaseUrl;
    }
    const issued = await issueLinks(ctx.services, db, request, title, targets, origin);
    let status = request.status;
    if (status === 'CREATED') {
      status = 'SENT';
      await setRequestStatus(db, request, status);
    }
    return {
      signingRequestSimplyId: request.simplyId,
      status: REQUEST_STATUS_WORDS[status as RequestStatus],
      resentSignerSimplyIds: issued.map((l) => l.signer.simplyId),
      links: issued.map((l) => ({ signingRequestSignerSimplyId: l.signer.simplyId, email: l.signer.email, linkIssuedAt: l.linkIssuedAt, linkExpiresAt: l.linkExpiresAt })),
    };
  });
}

export async function voidSigningRequest(ctx: RequestContext, simplyId: string, raw: unknown): Promise<RequestView> {
  const { row, schema } = await findVisible(ctx, simplyId, 'EDIT');
  const input = parseInput(voidSigningRequestInput, raw ?? {}, 'Invalid void');
  await expireDue(ctx.services.pool, { request: row });
  await inTransaction(ctx.services.pool, async (db) => {
    const request = await lockInFlight(db, row);
    await setRequestStatus(db, request, 'VOIDED', { voidReason: input.reason ?? null });
    await disableLinks(db, request);
    await insertEvents(db, request, [{ signerId: null, eventType: 'VOIDED', ...originOf(ctx), detail: input.reason ? { reason: input.reason } : null }]);
  });
  return viewOf(ctx, schema, (await findRequestBySimplyId(ctx.services.pool, row.teamId, simplyId))!);
}
