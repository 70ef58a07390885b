// Answering an import's suggestions (POST /v1/websites/import/{backgroundTaskSimplyId}/review),
// once the task has finished: each answer is applied to the imported drafts as a new draft
// revision (an EDITED activity), never published. Unknown suggestion ids are refused as a whole
// (nothing changes); a suggestion can be answered again.
import type { RequestContext } from '../../app/context.ts';
import { type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { backgroundTaskId, taskState } from '../background-tasks/index.ts';
import { type DesignComponent, type DesignDocument, componentIdOf } from './design-document.ts';
import { ImportNotFinishedError } from './import-errors.ts';
import { reviewImportInput, type ReviewImportInput } from './import-input.ts';
import type { ImportMarkers, Suggestion } from './import-suggestions.ts';
import { recordActivity } from './page-activity.ts';
import { requireWebsitesFeature, siteFor } from './website-access.ts';

export interface ImportReview {
  backgroundTaskSimplyId: string;
  websiteSimplyId: string | null;
  suggestions: Suggestion[];
  changedPageSimplyIds: string[];
}

type Change = (design: DesignDocument) => boolean;

/** Removes the components with these ids (and what is inside them). */
const removing = (ids: readonly string[]): Change => (design) => {
  const wanted = new Set(ids);
  let changed = false;
  const prune = (list: DesignComponent[]): DesignComponent[] =>
    list.filter((c) => {
      const id = componentIdOf(c);
      if (id !== undefined && wanted.has(id)) return !(changed = true);
      if (Array.isArray(c.components)) c.components = prune(c.components);
      return true;
    });
  design.components = prune(design.components);
  return changed;
};

/** The placeholders' text becomes `text` (plain text). */
const retexting = (ids: readonly string[], text: string): Change => (design) => {
  const wanted = new Set(ids);
  let changed = false;
  const visit = (list: DesignComponent[]) => {
    for (const c of list) {
      const id = componentIdOf(c);
      if (id !== undefined && wanted.has(id)) {
        c.components = [{ type: 'textnode', content: text }];
        changed = true;
      } else if (Array.isArray(c.components)) visit(c.components);
    }
  };
  visit(design.components);
  return changed;
};

const dropStyles: Change = (design) => {
  const had = design.styles.length > 0;
  design.styles = [];
  return had;
};

/** What answering `suggestion` with `response` does to which pages; a detail when the answer does not fit. */
function changesOf(suggestion: Suggestion, response: ReviewImportInput['responses'][number], markers: ImportMarkers, at: string): { pages: [string, Change][]; problem?: ErrorDetail } {
  const { action } = response;
  switch (suggestion.kind) {
    case 'FORM_TO_WIZARD': {
      const ids = markers.forms[suggestion.pageSimplyId ?? ''] ?? [];
      const page = suggestion.pageSimplyId!;
      if (action === 'SKIP') return { pages: [[page, removing(ids)]] };
      if (action === 'MODIFY') {
        const text = response.modifications?.text;
        if (typeof text !== 'string' || text.length === 0 || text.length > 2000) return { pages: [], problem: { field: `${at}.modifications.text`, message: 'MODIFY of a form takes { text }: 1-2000 characters shown in its place' } };
        return { pages: [[page, retexting(ids, text)]] };
      }
      return { pages: [] };
    }
    case 'MISSING_IMAGES':
      if (action === 'MODIFY') return { pages: [], problem: { field: `${at}.action`, message: 'this suggestion takes ACCEPT or SKIP' } };
      return { pages: action === 'ACCEPT' ? Object.entries(markers.missingImages).map(([page, ids]) => [page, removing(ids)]) : [] };
    case 'STYLE_CONFLICTS':
      if (action === 'MODIFY') return { pages: [], problem: { field: `${at}.action`, message: 'this suggestion takes ACCEPT or SKIP' } };
      return { pages: action === 'SKIP' ? markers.styledPages.map((page) => [page, dropStyles]) : [] };
    default:
      if (action === 'MODIFY') return { pages: [], problem: { field: `${at}.action`, message: 'this suggestion takes ACCEPT or SKIP' } };
      return { pages: [] };
  }
}

async function applyChanges(ctx: RequestContext, tx: Tx, teamId: bigint, websiteId: bigint, changes: readonly [string, Change][]): Promise<string[]> {
  const byPage = new Map<string, Change[]>();
  for (const [page, change] of changes) byPage.set(page, [...(byPage.get(page) ?? []), change]);
  const changed: string[] = [];
  for (const [simplyId, list] of byPage) {
    await tx.$queryRawUnsafe('SELECT 1 FROM "WebsitePage" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE', teamId, simplyId);
    const page = await tx.websitePage.findFirst({ where: { teamId, websiteId, simplyId } });
    // a page deleted since the import: nothing to change
    if (!page) continue;
    const design = structuredClone(page.draftDesign) as unknown as DesignDocument;
    design.styles ??= [];
    let touched = false;
    for (const change of list) touched = change(design) || touched;
    if (!touched) continue;
    const revision = page.draftRevision + 1;
    await tx.websitePage.update({ where: { id: page.id, teamId }, data: { draftDesign: design as never, draftRevision: revision } });
    await recordActivity(tx, page, 'EDITED', { userId: ctx.principal.userId, summary: 'Import review', revision, details: { importReview: true } });
    changed.push(simplyId);
  }
  return changed;
}

export async function reviewImport(ctx: RequestContext, taskSimplyId: string, raw: unknown): Promise<ImportReview> {
  requireWebsitesFeature(ctx, 'EDIT');
  const team = requireTeam(ctx);
  backgroundTaskId.assert(taskSimplyId, 'backgroundTaskSimplyId');
  const db = ctx.services.prisma;
  const state = await taskState(ctx, taskSimplyId);
  const row = state?.taskType === 'WEBSITE_IMPORT' ? await db.websiteImport.findUnique({ where: { teamId_backgroundTaskSimplyId: { teamId: team.id, backgroundTaskSimplyId: taskSimplyId } } }) : null;
  if (!state || !row) throw new NotFoundError('Website import', taskSimplyId);
  const site = row.websiteId === null ? null : await db.website.findFirst({ where: { teamId: team.id, id: row.websiteId } });
  // the imported site: its editors review (a site the caller has no role on is not found)
  if (site) await siteFor(ctx, db, site.simplyId, 'EDITOR');
  else if (row.createdByUserId !== ctx.principal.userId) throw new NotFoundError('Website import', taskSimplyId);
  if (!state.finished) throw new ImportNotFinishedError(state.status);
  const input = parseInput(reviewImportInput, raw, 'Invalid import review');
  const suggestions = row.suggestions as unknown as Suggestion[];
  const markers = row.markers as unknown as ImportMarkers;
  const byId = new Map(suggestions.map((s) => [s.suggestionId, s]));
  const details: ErrorDetail[] = [];
  const changes: [string, Change][] = [];
  input.responses.forEach((response, i) => {
    const at = `responses.${i}`;
    const suggestion = byId.get(response.suggestionId);
    if (!suggestion) return void details.push({ field: `${at}.suggestionId`, message: `${response.suggestionId} is not a suggestion of this import` });
    const { pages, problem } = changesOf(suggestion, response, markers, at);
    if (problem) return void details.push(problem);
    changes.push(...pages);
  });
  if (details.length) throw new ValidationError('Invalid import review: nothing was changed', details);
  return runTransaction(db, async (tx) => {
    const changed = site ? await applyChanges(ctx, tx, team.id, site.id, changes) : [];
    for (const response of input.responses) {
      const suggestion = byId.get(response.suggestionId)!;
      suggestion.status = response.action === 'ACCEPT' ? 'ACCEPTED' : response.action === 'SKIP' ? 'SKIPPED' : 'MODIFIED';
      if (response.modifications) suggestion.modifications = response.modifications;
      else delete suggestion.modifications;
    }
    await tx.websiteImport.update({ where: { id: row.id }, data: { suggestions: suggestions as never, reviewedAt: new Date(), reviewedByUserId: ctx.principal.userId } });
    return { backgroundTaskSimplyId: taskSimplyId, websiteSimplyId: site?.simplyId ?? null, suggestions, changedPageSimplyIds: changed };
  });
}
