// From a token to what a shared page of a view shows: the token (public or internal) is checked,
// then the view is read as it is now with its collection, the display fields the page may show
// (those whose field still exists; for an internal token, those the caller could read) and its
// saved filters in the record search's normal form. Everything is of the token's team: the team
// id comes from the token's row (or the signed claims), never from the request.
//
// A view whose saved filters the record search no longer accepts is not shown at all (null, so
// the endpoint answers 404): showing it unfiltered would show records the view was made to hide.
// Share readiness reports such a view (FILTER_INVALID).
import type { Services } from '../../app/context.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import { type CollectionDefinition, type FieldDefinition, type NormalizedFilter, normalizeFilters, type TeamSchema } from '../../kernel/index.ts';
import { type CalendarSettings, type DisplayFieldLink, effectiveCalendar, readStoredConfig, type StoredViewConfig } from './views.config.ts';
import { readInternalToken } from './views.internal-token.ts';
import { PUBLIC_TOKEN_PATTERN, PUBLIC_TOKEN_PREFIXES, type TokenType } from './views.public-tokens.input.ts';
import { findPublicToken, findViewOfTeam, type SharedViewRow, shouldTouch, touchPublicToken } from './views.public-tokens.sql.ts';
import { serves } from './views.readiness.ts';
import { labelOf } from './views.service.ts';

/** A column of the shared page (and a line of a feed event's description). */
export interface SharedColumn {
  link: DisplayFieldLink;
  field: FieldDefinition;
  /** the link's label, else the field's title (its first language when localized) */
  label: string;
}

export interface SharedView {
  teamId: bigint;
  view: SharedViewRow;
  /** the view's name as one line */
  title: string;
  schema: TeamSchema;
  collection: CollectionDefinition;
  /** the fields records of the collection carry (a SMART collection: its source's) */
  fieldsById: Map<string, FieldDefinition>;
  config: StoredViewConfig;
  calendar: CalendarSettings | null;
  columns: SharedColumn[];
  filters: NormalizedFilter[];
}

/** Who may frame the page: the token's origins (public EMBED), or the platform itself (internal). */
export type FrameAncestors = { kind: 'origins'; origins: readonly string[] } | { kind: 'self' };

export interface Share {
  view: SharedViewRow;
  /** the public access token's row id; null for an internal token */
  tokenId: bigint | null;
  frameAncestors: FrameAncestors;
  /** which display links (by position) may be shown; all for a public token */
  showsLink(index: number): boolean;
}

const all = () => true;

/**
 * The share a public token opens, or null for anything that does not open one now: malformed, of
 * another type, unknown, revoked (deleted), or a view that is not served (serves()).
 */
export async function publicShare(services: Services, tokenType: TokenType, token: string): Promise<Share | null> {
  if (!PUBLIC_TOKEN_PATTERN.test(token) || !token.startsWith(PUBLIC_TOKEN_PREFIXES[tokenType])) return null;
  const hit = await findPublicToken(services.pool, hashToken(token));
  if (!hit || hit.tokenType !== tokenType || !serves(tokenType, { isPublished: hit.view.isPublished, type: hit.view.viewType })) return null;
  if (shouldTouch(hit.lastUsedAt)) {
    // not awaited: the page does not wait for the bookkeeping, and a failure costs only the timestamp
    touchPublicToken(services.pool, hit.view.teamId, hit.tokenId).catch((err: unknown) => services.logger.warn({ err }, 'could not record the use of a view token'));
  }
  return { view: hit.view, tokenId: hit.tokenId, frameAncestors: { kind: 'origins', origins: hit.allowedOrigins }, showsLink: all };
}

/** The share an internal token opens: its view as it was signed (a changed view voids it), or null. */
export async function internalShare(services: Services, token: string): Promise<Share | null> {
  const claims = readInternalToken(services, token);
  if (!claims) return null;
  const team = await services.prisma.team.findUnique({ where: { simplyId: claims.teamSimplyId }, select: { id: true } });
  const view = team && (await findViewOfTeam(services.pool, team.id, claims.viewSimplyId));
  if (!view || view.updatedAt.getTime() !== claims.revision) return null;
  return { view, tokenId: null, frameAncestors: { kind: 'self' }, showsLink: claims.showsLink };
}

/** The view behind a share as the pages need it, or null when it cannot be shown (see the file comment). */
export async function loadSharedView(services: Services, share: Share): Promise<SharedView | null> {
  const { view } = share;
  const schema = await services.schemas.get(view.teamId);
  const collection = schema.collectionsById.get(view.collectionId);
  if (!collection) return null;
  const fields = schema.fieldsOf(collection);
  const fieldsById = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  const config = readStoredConfig(view.simplyId, view.config);
  const normalized = normalizeFilters(fields, config.filters);
  if (!normalized.ok) return null;
  const columns: SharedColumn[] = [];
  config.displayFieldLinks.forEach((link, index) => {
    const field = fieldsById.get(link.dataFieldSimplyId);
    if (field && share.showsLink(index) && !columns.some((c) => c.field === field)) columns.push({ link, field, label: labelOf(link.label ?? field.title) });
  });
  return {
    teamId: view.teamId,
    view,
    title: labelOf(view.name),
    schema,
    collection,
    fieldsById,
    config,
    calendar: effectiveCalendar(view.viewType, config),
    columns,
    filters: normalized.filters,
  };
}
