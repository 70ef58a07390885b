// What the faces show of a request: its row with the public ids around it (collection, record,
// template, signed file, linked constituents), its signers and its audit events, loaded in a few
// statements for one request or a page of them.
import type pg from 'pg';
import { recordSimplyIds, type TeamSchema } from '../../kernel/index.ts';
import { REQUEST_STATUS_WORDS, SIGNER_STATUS_WORDS, type RequestStatus } from './signing.input.ts';
import { signerOf, type RequestRow, type SignerRow } from './signing.sql.ts';

export interface EventRow {
  id: bigint;
  signerId: bigint | null;
  eventType: string;
  ipAddress: string | null;
  userAgent: string | null;
  detail: Record<string, unknown> | null;
  occurredAt: Date;
}

export interface SignerView {
  row: SignerRow;
  linkedConstituentDataRecordSimplyId: string | null;
  events: EventRow[];
}

export interface RequestView {
  row: RequestRow;
  sourceDataCollectionSimplyId: string;
  sourceDataRecordSimplyId: string | null;
  contentTemplateSimplyId: string | null;
  signedFileSimplyId: string | null;
  signers: SignerView[];
  events: EventRow[];
}

export const requestStatusWord = (status: string): string => REQUEST_STATUS_WORDS[status as RequestStatus] ?? status.toLowerCase();
export const signerStatusWord = (status: string): string => SIGNER_STATUS_WORDS[status as keyof typeof SIGNER_STATUS_WORDS] ?? status.toLowerCase();

async function simplyIdsOf(db: pg.Pool | pg.PoolClient, table: '"ContentTemplate"' | '"StoredFile"', ids: (bigint | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is bigint => id !== null).map(String))];
  if (wanted.length === 0) return new Map();
  const { rows } = await db.query(`SELECT id::text AS id, "simplyId" FROM ${table} WHERE id = ANY($1::bigint[])`, [wanted]);
  return new Map(rows.map((r) => [r.id as string, r.simplyId as string]));
}

export async function loadViews(db: pg.Pool | pg.PoolClient, schema: TeamSchema, requests: readonly RequestRow[], signers: readonly SignerRow[]): Promise<RequestView[]> {
  if (requests.length === 0) return [];
  const ids = requests.map((r) => String(r.id));
  const { rows } = await db.query(
    `SELECT id, "signingRequestId", "signerId", "eventType", "ipAddress", "userAgent", detail, "occurredAt" FROM "SigningRequestEvent" WHERE "signingRequestId" = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  const events = rows.map((r) => ({ ...r, id: BigInt(r.id), signingRequestId: String(r.signingRequestId), signerId: r.signerId == null ? null : BigInt(r.signerId) }));
  const [records, templates, files] = await Promise.all([
    recordSimplyIds(db, schema.teamId, [...requests.map((r) => r.sourceRecordId), ...signers.flatMap((s) => s.linkedConstituentRecordId ?? [])]),
    simplyIdsOf(db, '"ContentTemplate"', requests.map((r) => r.contentTemplateId)),
    simplyIdsOf(db, '"StoredFile"', requests.map((r) => r.signedFileId)),
  ]);
  return requests.map((row) => ({
    row,
    sourceDataCollectionSimplyId: schema.collectionsById.get(row.sourceCollectionId)?.simplyId ?? '',
    sourceDataRecordSimplyId: records.get(row.sourceRecordId) ?? null,
    contentTemplateSimplyId: row.contentTemplateId === null ? null : (templates.get(String(row.contentTemplateId)) ?? null),
    signedFileSimplyId: row.signedFileId === null ? null : (files.get(String(row.signedFileId)) ?? null),
    signers: signers
      .filter((s) => s.signingRequestId === row.id)
      .map((s) => ({
        row: s,
        linkedConstituentDataRecordSimplyId: s.linkedConstituentRecordId === null ? null : (records.get(s.linkedConstituentRecordId) ?? null),
        events: events.filter((e) => e.signerId === s.id),
      })),
    events: events.filter((e) => e.signingRequestId === String(row.id)),
  }));
}

/** Signers of many requests, in signing order. */
export async function signersOfMany(db: pg.Pool | pg.PoolClient, requestIds: readonly bigint[]): Promise<SignerRow[]> {
  if (requestIds.length === 0) return [];
  const { rows } = await db.query(`SELECT * FROM "SigningRequestSigner" WHERE "signingRequestId" = ANY($1::bigint[]) ORDER BY "signingOrder", id`, [requestIds.map(String)]);
  return rows.map(signerOf);
}

/** A field's title in the team's words (a localized title's first language when it has several). */
export function fieldLabel(title: unknown, fallback: string): string {
  if (typeof title === 'string' && title.trim()) return title;
  if (title && typeof title === 'object') {
    const first = Object.values(title as Record<string, unknown>).find((v) => typeof v === 'string' && v.trim());
    if (typeof first === 'string') return first;
  }
  return fallback;
}

/** A decoded field value as one line of text for a signer to read. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(displayValue).join(', ');
  return JSON.stringify(value);
}
