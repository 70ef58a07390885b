// Reading the team schema (Document 1 §4.3): the current export, its version history, the
// difference between two versions, and whether it changed since a version or a time. Versions are
// written by schemaWrite (schema-write.ts); this file only reads them.
//
// What a caller sees: scoped tokens need schema:read. Collections (and the views on them) are
// listed only when the caller can read them, fields only when its role does not hide them
// (fieldAccess NONE); team admins and full data access see every collection. The same narrowing
// applies to both sides of a comparison.
import { fieldAccess, hasDataAccess, hasScope, type Principal } from '../../app/auth/principal.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { RequestContext } from '../../app/context.ts';
import { parsePaging, type PageInput, type PaginationShape, paginationOf } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, PermissionDeniedError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { diffTeamSchemas, type SchemaDiff } from './schema-diff.ts';
import { exportTeamSchema, type TeamSchemaDocument } from './schema-export.ts';

export function requireSchemaRead(p: Principal): void {
  if (!hasScope(p, 'schema:read')) throw new PermissionDeniedError('This token lacks the OAuth scope schema:read');
}

function collectionOf(item: unknown): string | null {
  const id = item && typeof item === 'object' ? (item as Record<string, unknown>).dataCollectionSimplyId : null;
  return typeof id === 'string' ? id : null;
}

/** The part of a schema document the caller may see (see the file comment). */
export function visibleSchema(p: Principal, doc: TeamSchemaDocument): TeamSchemaDocument {
  const readable = (collection: string | null) => collection !== null && hasDataAccess(p, collection, 'READ');
  return {
    formatVersion: doc.formatVersion,
    collections: (doc.collections ?? [])
      .filter((c) => readable(c.dataCollectionSimplyId))
      .map((c) => ({ ...c, fields: (c.fields ?? []).filter((f) => fieldAccess(p, c.dataCollectionSimplyId, f.dataFieldSimplyId) !== 'NONE') })),
    views: (doc.views ?? []).filter((v) => readable(v.dataCollectionSimplyId)),
    wizards: (doc.wizards ?? []).filter((w) => readable(collectionOf(w))),
    automations: (doc.automations ?? []).filter((a) => readable(collectionOf(a))),
  };
}

export interface SchemaExport extends TeamSchemaDocument {
  /** the current version number; 0 before the first recorded change */
  version: number;
}

/** The current schema and its version number, read in one snapshot (REPEATABLE READ). */
export async function currentExport(ctx: RequestContext): Promise<SchemaExport> {
  const team = requireTeam(ctx);
  requireSchemaRead(ctx.principal);
  const { doc, version } = await runTransaction(
    ctx.services.prisma,
    async (tx) => {
      const [doc, last] = await Promise.all([
        exportTeamSchema(tx, team.id),
        tx.teamSchemaVersion.findFirst({ where: { teamId: team.id }, orderBy: { version: 'desc' }, select: { version: true } }),
      ]);
      return { doc, version: last?.version ?? 0 };
    },
    { snapshot: true },
  );
  return { version, ...visibleSchema(ctx.principal, doc) };
}

export interface VersionItem {
  version: number;
  summary: string;
  actorKind: string;
  actorId: string | null;
  createdAt: Date;
}

export async function listVersions(ctx: RequestContext, args: PageInput): Promise<{ nodes: VersionItem[]; pagination: PaginationShape }> {
  const team = requireTeam(ctx);
  requireSchemaRead(ctx.principal);
  const paging = parsePaging(args);
  const where = { teamId: team.id };
  const nodes = await ctx.services.prisma.teamSchemaVersion.findMany({
    where,
    orderBy: { version: 'desc' },
    skip: paging.offset,
    take: paging.limit,
    select: { version: true, summary: true, actorKind: true, actorId: true, createdAt: true },
  });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => ctx.services.prisma.teamSchemaVersion.count({ where })) };
}

function versionNumber(value: unknown, name: string, details: ErrorDetail[]): number | null {
  if (value === undefined || value === null) {
    details.push({ field: name, message: 'is required (a version number; 0 is the empty schema)' });
    return null;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    details.push({ field: name, message: 'must be an integer >= 0' });
    return null;
  }
  return value;
}

export interface VersionComparison extends SchemaDiff {
  from: number;
  to: number;
}

/** Diff of two versions' snapshots; version 0 is the empty schema. A version the team lacks: 404. */
export async function compareVersions(ctx: RequestContext, args: { from?: number | null; to?: number | null }): Promise<VersionComparison> {
  const team = requireTeam(ctx);
  requireSchemaRead(ctx.principal);
  const details: ErrorDetail[] = [];
  const from = versionNumber(args.from, 'from', details);
  const to = versionNumber(args.to, 'to', details);
  if (from === null || to === null) throw new ValidationError('from and to must be version numbers', details);
  const wanted = [...new Set([from, to].filter((v) => v > 0))];
  const rows = await ctx.services.prisma.teamSchemaVersion.findMany({ where: { teamId: team.id, version: { in: wanted } }, select: { version: true, snapshot: true } });
  const snapshots = new Map(rows.map((r) => [r.version, r.snapshot as unknown as TeamSchemaDocument]));
  const load = (v: number): TeamSchemaDocument | null => {
    if (v === 0) return null;
    const doc = snapshots.get(v);
    if (!doc) throw new NotFoundError('Team schema version', String(v));
    return visibleSchema(ctx.principal, doc);
  };
  const before = load(from);
  const after = load(to);
  return { from, to, ...diffTeamSchemas(before, after) };
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}(:?\d{2})?))?$/;

/** An ISO 8601 date or date-time (a time needs an offset, so the instant is unambiguous). */
export function parseTimestamp(value: string, name: string): Date {
  const date = ISO_TIMESTAMP.test(value) ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value.replace(' ', 'T')) : null;
  // Date rolls 2026-02-30 over to March: the calendar day must exist as written
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const realDay = day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
  if (!date || Number.isNaN(date.getTime()) || !realDay) {
    throw new ValidationError(`${name} must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z`, [{ field: name, message: 'must be an ISO 8601 date or date-time with an offset' }]);
  }
  return date;
}

export interface SchemaChanged {
  changed: boolean;
  currentVersion: number;
  changedAt: Date | null;
  versionsSince: number;
}

/** Whether the schema changed since a version the client holds, or since a time. Exactly one of the two. */
export async function schemaChangedSince(ctx: RequestContext, args: { sinceVersion?: number | null; since?: string | null }): Promise<SchemaChanged> {
  const team = requireTeam(ctx);
  requireSchemaRead(ctx.principal);
  const hasVersion = args.sinceVersion !== undefined && args.sinceVersion !== null;
  const hasTime = args.since !== undefined && args.since !== null && args.since !== '';
  if (hasVersion === hasTime) {
    const message = 'give exactly one of sinceVersion and since';
    throw new ValidationError(`Give exactly one of sinceVersion (a version number) and since (an ISO 8601 timestamp)`, [
      { field: 'sinceVersion', message },
      { field: 'since', message },
    ]);
  }
  const sinceVersion = hasVersion ? args.sinceVersion! : null;
  if (sinceVersion !== null && (!Number.isSafeInteger(sinceVersion) || sinceVersion < 0)) {
    throw new ValidationError('sinceVersion must be an integer >= 0', [{ field: 'sinceVersion', message: 'must be an integer >= 0' }]);
  }
  const since = hasTime ? parseTimestamp(args.since!, 'since') : null;
  const { prisma } = ctx.services;
  const latest = await prisma.teamSchemaVersion.findFirst({ where: { teamId: team.id }, orderBy: { version: 'desc' }, select: { version: true, createdAt: true } });
  const currentVersion = latest?.version ?? 0;
  if (sinceVersion !== null && sinceVersion > currentVersion) {
    throw new ValidationError(`sinceVersion ${sinceVersion} is ahead of the current version ${currentVersion}`, [
      { field: 'sinceVersion', message: `must be at most the current version (${currentVersion})` },
    ]);
  }
  const versionsSince = latest
    ? await prisma.teamSchemaVersion.count({ where: sinceVersion !== null ? { teamId: team.id, version: { gt: sinceVersion } } : { teamId: team.id, createdAt: { gt: since! } } })
    : 0;
  return { changed: versionsSince > 0, currentVersion, changedAt: latest?.createdAt ?? null, versionsSince };
}
