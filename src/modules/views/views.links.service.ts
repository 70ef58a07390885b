// The field links of a view (docs/api/data-views.md "Field links"): display fields, filter fields
// and calendar date fields, each link with its own simplyId, in an order the admin sets. Each link
// is checked against the collection's fields and the view's type (views.link-rules.ts). Changes
// are schema changes (writeView: serialized per team, one version each), so concurrent reorders
// and edits of one view take turns and always leave every link once, in one of the orders sent.
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { FieldDefinition } from '../../kernel/index.ts';
import type { z } from 'zod';
import { type AdminView, loadAdminView, saveView, writeView } from './views.admin.service.ts';
import {
  calendarLinkInput,
  calendarLinkUpdate,
  displayLinkInput,
  displayLinkUpdate,
  filterLinkInput,
  filterLinkUpdate,
  reorderLinksInput,
} from './views.admin.input.ts';
import type { StoredViewConfig } from './views.config.ts';
import { dataViewId, viewFieldLinkId } from './views.ids.ts';
import { type AnyLink, kindUnavailable, LINK_RULES, type LinkKind, type LinkOf, linkProblems } from './views.link-rules.ts';

/** A link as served: the link and the field it names (null when the field is no longer in the collection). */
export interface LinkItem<K extends LinkKind = LinkKind> {
  link: LinkOf[K];
  field: FieldDefinition | null;
}

const BODIES: Record<LinkKind, { add: z.ZodType; update: z.ZodType }> = {
  display: { add: displayLinkInput, update: displayLinkUpdate },
  filter: { add: filterLinkInput, update: filterLinkUpdate },
  calendarDateInfo: { add: calendarLinkInput, update: calendarLinkUpdate },
};

function itemOf<K extends LinkKind>(view: AdminView, link: LinkOf[K]): LinkItem<K> {
  return { link, field: view.fieldsById.get(link.dataFieldSimplyId) ?? null };
}

function linksOf<K extends LinkKind>(kind: K, config: StoredViewConfig): LinkOf[K][] {
  return config[LINK_RULES[kind].key] as LinkOf[K][];
}

function withLinks<K extends LinkKind>(kind: K, config: StoredViewConfig, links: LinkOf[K][]): StoredViewConfig {
  return { ...config, [LINK_RULES[kind].key]: links };
}

/** 400 naming each property of the link that does not fit the collection or the view's type. */
function assertLinkFits(kind: LinkKind, link: AnyLink, view: AdminView): void {
  const unavailable = kindUnavailable(kind, view.type);
  if (unavailable) throw new ValidationError(unavailable, [{ field: 'dataViewSimplyId', message: unavailable }]);
  const problems = linkProblems(kind, link, view.fieldsById, view.type);
  if (problems.length > 0) {
    throw new ValidationError(`Invalid ${LINK_RULES[kind].noun} link: ${problems[0]!.message}`, problems.map((p) => ({ field: p.part, message: p.message })));
  }
}

function assertNotLinkedTwice(kind: LinkKind, links: readonly AnyLink[], link: AnyLink): void {
  const other = links.find((l) => l.dataFieldSimplyId === link.dataFieldSimplyId && l.id !== link.id);
  if (other) throw new ConflictError(`${link.dataFieldSimplyId} is already a ${LINK_RULES[kind].noun} of this view (link ${other.id})`);
}

function findLink<K extends LinkKind>(kind: K, view: AdminView, linkSimplyId: string): LinkOf[K] {
  const link = linksOf(kind, view.config).find((l) => l.id === linkSimplyId);
  if (!link) throw new NotFoundError(`${LINK_RULES[kind].noun} link`, linkSimplyId);
  return link;
}

function assertIds(viewSimplyId: string, linkSimplyId?: string): void {
  dataViewId.assert(viewSimplyId, 'dataViewSimplyId');
  if (linkSimplyId !== undefined) viewFieldLinkId.assert(linkSimplyId, 'linkSimplyId');
}

/** The view's links of one kind, in their order. */
export async function listLinks<K extends LinkKind>(ctx: RequestContext, kind: K, viewSimplyId: string): Promise<LinkItem<K>[]> {
  const view = await loadAdminView(ctx, viewSimplyId);
  return linksOf(kind, view.config).map((l) => itemOf(view, l));
}

/** Adds a link at the end of the kind's list. */
export async function addLink<K extends LinkKind>(ctx: RequestContext, kind: K, viewSimplyId: string, raw: unknown): Promise<LinkItem<K>> {
  requireTeam(ctx);
  assertIds(viewSimplyId);
  const rule = LINK_RULES[kind];
  const input = parseInput(BODIES[kind].add, raw, `Invalid ${rule.noun} link`) as Omit<LinkOf[K], 'id'>;
  return writeView(
    ctx,
    viewSimplyId,
    (_view, item) => `view ${rule.noun} linked: ${item.link.dataFieldSimplyId} (${item.link.id}) on view ${viewSimplyId}`,
    async (view, tx) => {
      const link = { ...input, id: viewFieldLinkId.create() } as LinkOf[K];
      assertLinkFits(kind, link, view);
      const links = linksOf(kind, view.config);
      assertNotLinkedTwice(kind, links, link);
      if (links.length >= rule.max) throw new ValidationError(`A view holds at most ${rule.max} ${rule.noun} links`, [{ field: rule.key, message: `at most ${rule.max} links` }]);
      const saved = await saveView(tx, view, withLinks(kind, view.config, [...links, link]));
      return itemOf(saved, link);
    },
  );
}

/** Changes a link: absent properties stay, null clears (`dataFieldSimplyId` cannot be cleared: delete the link instead). */
export async function updateLink<K extends LinkKind>(ctx: RequestContext, kind: K, viewSimplyId: string, linkSimplyId: string, raw: unknown): Promise<LinkItem<K>> {
  requireTeam(ctx);
  assertIds(viewSimplyId, linkSimplyId);
  const rule = LINK_RULES[kind];
  const input = parseInput(BODIES[kind].update, raw, `Invalid ${rule.noun} link`) as Partial<LinkOf[K]>;
  return writeView(
    ctx,
    viewSimplyId,
    () => `view ${rule.noun} link updated: ${linkSimplyId} on view ${viewSimplyId}`,
    async (view, tx) => {
      const current = findLink(kind, view, linkSimplyId);
      const link = { ...current, ...input, id: current.id } as LinkOf[K];
      assertLinkFits(kind, link, view);
      const links = linksOf(kind, view.config);
      assertNotLinkedTwice(kind, links, link);
      const saved = await saveView(tx, view, withLinks(kind, view.config, links.map((l) => (l.id === link.id ? link : l))));
      return itemOf(saved, link);
    },
  );
}

export async function deleteLink(ctx: RequestContext, kind: LinkKind, viewSimplyId: string, linkSimplyId: string): Promise<boolean> {
  requireTeam(ctx);
  assertIds(viewSimplyId, linkSimplyId);
  const rule = LINK_RULES[kind];
  return writeView(
    ctx,
    viewSimplyId,
    () => `view ${rule.noun} link deleted: ${linkSimplyId} on view ${viewSimplyId}`,
    async (view, tx) => {
      findLink(kind, view, linkSimplyId);
      await saveView(tx, view, withLinks(kind, view.config, linksOf(kind, view.config).filter((l) => l.id !== linkSimplyId)));
      return true;
    },
  );
}

/** Puts the links in the order given: every link of the kind, each once. */
export async function reorderLinks<K extends LinkKind>(ctx: RequestContext, kind: K, viewSimplyId: string, orderedLinkSimplyIds: unknown): Promise<LinkItem<K>[]> {
  requireTeam(ctx);
  assertIds(viewSimplyId);
  const rule = LINK_RULES[kind];
  const { orderedLinkSimplyIds: ordered } = parseInput(reorderLinksInput, { orderedLinkSimplyIds }, `Invalid ${rule.noun} link order`);
  return writeView(
    ctx,
    viewSimplyId,
    () => `view ${rule.noun} links reordered on view ${viewSimplyId}`,
    async (view, tx) => {
      const links = linksOf(kind, view.config);
      const byId = new Map(links.map((l) => [l.id, l]));
      const details: ErrorDetail[] = [];
      const seen = new Set<string>();
      ordered.forEach((id, i) => {
        if (!byId.has(id)) details.push({ field: `orderedLinkSimplyIds[${i}]`, message: `${id} is not a ${rule.noun} link of this view` });
        else if (seen.has(id)) details.push({ field: `orderedLinkSimplyIds[${i}]`, message: `${id} is listed more than once` });
        seen.add(id);
      });
      const missing = links.filter((l) => !seen.has(l.id)).map((l) => l.id);
      if (missing.length > 0) details.push({ field: 'orderedLinkSimplyIds', message: `must list every ${rule.noun} link of the view; missing ${missing.join(', ')}` });
      if (details.length > 0) throw new ValidationError(`Invalid ${rule.noun} link order`, details);
      const saved = await saveView(tx, view, withLinks(kind, view.config, ordered.map((id) => byId.get(id)!)));
      return linksOf(kind, saved.config).map((l) => itemOf(saved, l));
    },
  );
}
