// Share readiness (GET …/share-readiness): what keeps a view from being published, and from being
// shared through an embed or a calendar feed. Computed from the stored configuration and the
// collection as it is now, so it also finds what changed under the view since it was configured
// (a field deleted, a filter the search language no longer accepts).
import { type CollectionDefinition, type FieldDefinition, isDataType, normalizeFilters, valueShape } from '../../kernel/index.ts';
import { effectiveMap, GROUPING_REQUIRED_TYPES, type StoredViewConfig } from './views.config.ts';
import { kindUnavailable, LINK_KINDS, LINK_RULES, linkProblems, LOCATION_TYPES } from './views.link-rules.ts';
import { SORTABLE_BUILT_INS, type ViewType } from './views.input.ts';

export const SHARE_TOKEN_TYPES = ['EMBED', 'ICS_FEED'] as const;

export interface ReadinessIssue {
  code: string;
  message: string;
  /** where in the admin detail the problem is (a config path or a link), when it has one place */
  field: string | null;
}

export interface ShareTarget {
  tokenType: (typeof SHARE_TOKEN_TYPES)[number];
  /** a public access token of this type can be created now */
  isAvailable: boolean;
  blockers: ReadinessIssue[];
  /** the view has a public access token of this type */
  hasToken: boolean;
  /** that token's URL answers now (see serves) */
  isServing: boolean;
}

/**
 * Whether the public URL of a token of this type answers for the view as it is: the view is
 * published and, for a calendar feed, a CALENDAR view. A token outlives unpublishing (its URL
 * answers 404 meanwhile and works again once the view is published).
 */
export function serves(tokenType: (typeof SHARE_TOKEN_TYPES)[number], view: { isPublished: boolean; type: ViewType }): boolean {
  return view.isPublished && (tokenType === 'EMBED' || view.type === 'CALENDAR');
}

export interface ShareReadiness {
  canPublish: boolean;
  canShare: boolean;
  /** what blocks publishing (and so every kind of sharing) */
  blockers: ReadinessIssue[];
  /** worth knowing before sharing; blocks nothing */
  warnings: ReadinessIssue[];
  shareTargets: ShareTarget[];
}

interface ViewState {
  type: ViewType;
  isPublished: boolean;
  collection: CollectionDefinition;
  fieldsById: ReadonlyMap<string, FieldDefinition>;
  config: StoredViewConfig;
}

const issue = (code: string, message: string, field: string | null = null): ReadinessIssue => ({ code, message, field });

function fieldIssue(fieldsById: ReadonlyMap<string, FieldDefinition>, id: string, at: string, use: string, fits: (f: FieldDefinition) => boolean): ReadinessIssue | null {
  const field = fieldsById.get(id);
  if (!field) return issue('FIELD_MISSING', `${use} ${id} is no longer a field of the collection`, at);
  if (!fits(field)) return issue('FIELD_UNSUITABLE', `${use} ${id} is now a ${field.dataType} field, which cannot be used there`, at);
  return null;
}

/** the record search language's own fields (docs/api/data-types.md) */
const BUILT_IN_FILTER_FIELDS = ['calculatedName', 'createdAt', 'updatedAt', 'isArchived'];

const sortable = (f: FieldDefinition) => isDataType(f.dataType) && valueShape(f.dataType).sortable;

/** The configuration blockers of a view, in the order an admin screen shows them. */
export function publishBlockers(view: ViewState): ReadinessIssue[] {
  const { type, collection, fieldsById, config } = view;
  const out: ReadinessIssue[] = [];
  if (collection.isArchived) out.push(issue('COLLECTION_ARCHIVED', `The view's collection ${collection.simplyId} is archived`));
  if (config.displayFieldLinks.length === 0) out.push(issue('NO_DISPLAY_FIELDS', 'The view shows no fields: link at least one display field', 'displayFieldLinks'));
  for (const kind of LINK_KINDS) {
    const rule = LINK_RULES[kind];
    const links = config[rule.key];
    const unavailable = links.length > 0 ? kindUnavailable(kind, type) : null;
    if (unavailable) out.push(issue('LINK_NOT_ALLOWED', `${unavailable}: delete the ${rule.noun} links`, rule.key));
    for (const link of links) {
      for (const p of linkProblems(kind, link, fieldsById, type)) {
        out.push(issue(p.code === 'INVALID' ? 'LINK_INVALID' : p.code, `${rule.noun} link ${link.id}: ${p.message}`, `${rule.key}.${link.id}.${p.part}`));
      }
    }
  }
  if (type === 'CALENDAR' && config.calendarDateInfoFieldLinks.length === 0) {
    out.push(issue('NO_CALENDAR_DATE_FIELD', 'A calendar needs a date: link a DATE or DATE_TIME field as a calendar date field', 'calendarDateInfoFieldLinks'));
  }
  if (type === 'MAP') {
    const location = effectiveMap(type, config)!.locationFieldSimplyId;
    if (location === null) out.push(issue('NO_MAP_LOCATION_FIELD', 'A map needs a location: set config.map.locationFieldSimplyId to a PHYSICAL_ADDRESS field', 'config.map.locationFieldSimplyId'));
    else {
      const wrong = fieldIssue(fieldsById, location, 'config.map.locationFieldSimplyId', 'The location field', (f) => (LOCATION_TYPES as readonly string[]).includes(f.dataType));
      if (wrong) out.push(wrong);
    }
  }
  if (GROUPING_REQUIRED_TYPES.includes(type) && config.grouping.length === 0) {
    out.push(issue('NO_GROUPING', `A ${type} view needs something to group by: set config.grouping`, 'config.grouping'));
  }
  config.grouping.forEach((g, i) => {
    const wrong = fieldIssue(fieldsById, g.field, `config.grouping[${i}].field`, 'The grouping field', sortable);
    if (wrong) out.push(wrong);
  });
  config.sortOrder.forEach((s, i) => {
    if ((SORTABLE_BUILT_INS as readonly string[]).includes(s.field)) return;
    const wrong = fieldIssue(fieldsById, s.field, `config.sortOrder[${i}].field`, 'The sort field', sortable);
    if (wrong) out.push(wrong);
  });
  const fields = [...fieldsById.values()];
  config.filters.forEach((filter, i) => {
    const at = `config.filters[${i}]`;
    const name = typeof filter?.field === 'string' ? filter.field : '';
    if (!BUILT_IN_FILTER_FIELDS.includes(name) && !fieldsById.has(name)) {
      out.push(issue('FIELD_MISSING', `The saved filter on ${name} names a field that is no longer in the collection`, `${at}.field`));
      return;
    }
    const result = normalizeFilters(fields, [filter]);
    if (!result.ok) {
      for (const d of result.details) out.push(issue('FILTER_INVALID', `The saved filter ${i + 1} is no longer accepted: ${d.message}`, `${at}${(d.field ?? '').replace(/^filters\[0\]/, '')}`));
    }
  });
  return out;
}

/** `tokens`: the types of the public access tokens the view has. */
export function shareReadiness(view: ViewState, tokens: ReadonlySet<string> = new Set()): ShareReadiness {
  const blockers = publishBlockers(view);
  const canPublish = blockers.length === 0;
  const canShare = canPublish && view.isPublished;
  const common: ReadinessIssue[] = [];
  if (!canPublish) common.push(issue('VIEW_NOT_READY', 'The view has configuration blockers (see blockers)'));
  if (!view.isPublished) common.push(issue('NOT_PUBLISHED', 'The view is not published: set isPublished in the admin detail', 'isPublished'));
  const shareTargets: ShareTarget[] = SHARE_TOKEN_TYPES.map((tokenType) => {
    const own = [...common];
    if (tokenType === 'ICS_FEED' && view.type !== 'CALENDAR') own.push(issue('NOT_A_CALENDAR', `Calendar feeds are offered for CALENDAR views; this is a ${view.type} view`, 'enumDataViewTypeId'));
    const hasToken = tokens.has(tokenType);
    return { tokenType, isAvailable: own.length === 0, blockers: own, hasToken, isServing: hasToken && serves(tokenType, view) };
  });
  const warnings: ReadinessIssue[] = [];
  for (const target of shareTargets) {
    if (target.hasToken && !target.isServing) {
      const unpublished = !view.isPublished;
      const why = unpublished ? 'until the view is published again' : 'while the view is not a CALENDAR view';
      warnings.push(issue('TOKEN_NOT_SERVING', `The view has a ${target.tokenType} token whose URL answers 404 ${why}`, unpublished ? 'isPublished' : 'enumDataViewTypeId'));
    }
  }
  if (view.config.filters.length === 0) {
    warnings.push(issue('NO_SAVED_FILTERS', 'The view has no saved filters: once shared, every active record of the collection is shown', 'config.filters'));
  }
  return { canPublish, canShare, blockers, warnings, shareTargets };
}
