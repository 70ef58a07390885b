// What each kind of field link may name, on which view types (docs/api/data-views.md "Field
// links"). Pure functions over the collection's field definitions: the link routes use them to
// refuse a link (400 naming the part), eligible-fields to explain which fields can be linked, and
// share-readiness to find links that no longer fit (a field deleted or changed since).
import { type FieldDefinition, isDataType, normalizeFilters } from '../../kernel/index.ts';
import { AGGREGATED_TYPES, type CalendarDateInfoFieldLink, type DisplayFieldLink, type FilterFieldLink, type LinkListKey } from './views.config.ts';
import { MAX_VIEW_COLUMNS, type ViewType } from './views.input.ts';

export const LINK_KINDS = ['display', 'filter', 'calendarDateInfo'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export interface LinkOf {
  display: DisplayFieldLink;
  filter: FilterFieldLink;
  calendarDateInfo: CalendarDateInfoFieldLink;
}
export type AnyLink = LinkOf[LinkKind];

export interface LinkKindRule {
  kind: LinkKind;
  /** the list in the stored config and in the admin detail */
  key: LinkListKey;
  /** in messages: "display field" */
  noun: string;
  /** the most links of this kind a view holds */
  max: number;
  /** the view types the kind applies to */
  viewTypes: readonly ViewType[];
}

const ALL_TYPES: readonly ViewType[] = ['LIST', 'DETAIL', 'CALENDAR', 'TABLE', 'MAP', 'PIVOT', 'CHART', 'STATS'];

export const LINK_RULES: Record<LinkKind, LinkKindRule> = {
  display: { kind: 'display', key: 'displayFieldLinks', noun: 'display field', max: MAX_VIEW_COLUMNS, viewTypes: ALL_TYPES },
  filter: { kind: 'filter', key: 'filterFieldLinks', noun: 'filter field', max: 25, viewTypes: ALL_TYPES.filter((t) => t !== 'DETAIL') },
  calendarDateInfo: { kind: 'calendarDateInfo', key: 'calendarDateInfoFieldLinks', noun: 'calendar date field', max: 10, viewTypes: ['CALENDAR'] },
};

export const NUMERIC_TYPES = ['NUMBER', 'DECIMAL', 'MONEY'] as const;
export const DATE_TYPES = ['DATE', 'DATE_TIME'] as const;
const FILE_TYPES = ['SINGLE_FILE', 'MULTI_FILE', 'SINGLE_IMAGE', 'MULTI_IMAGE'];
export const LOCATION_TYPES = ['PHYSICAL_ADDRESS'] as const;

const isOneOf = (list: readonly string[], value: string) => list.includes(value);

/** Why links of this kind cannot be on a view of this type (null: they can). */
export function kindUnavailable(kind: LinkKind, type: ViewType): string | null {
  const rule = LINK_RULES[kind];
  if (rule.viewTypes.includes(type)) return null;
  return kind === 'calendarDateInfo'
    ? `calendar date fields can be linked only to CALENDAR views; this is a ${type} view`
    : `${rule.noun}s cannot be linked to ${type} views (they apply to ${rule.viewTypes.join(', ')})`;
}

/** Why this field can never be linked as this kind, whatever its settings (null: it can). */
export function fieldUnsuitable(kind: LinkKind, field: FieldDefinition): string | null {
  if (!isDataType(field.dataType)) return `${field.dataFieldSimplyId} has a data type this platform does not know (${field.dataType})`;
  if (kind === 'filter' && isOneOf(FILE_TYPES, field.dataType)) return `${field.dataFieldSimplyId} is a ${field.dataType} field; file and image fields cannot be offered as filters`;
  if (kind === 'calendarDateInfo' && !isOneOf(DATE_TYPES, field.dataType)) {
    return `${field.dataFieldSimplyId} is a ${field.dataType} field; calendar dates must be DATE or DATE_TIME fields`;
  }
  return null;
}

export interface LinkProblem {
  /** FIELD_MISSING: the field is not in the collection (any more); FIELD_UNSUITABLE: its type does not fit; INVALID: a setting does not fit */
  code: 'FIELD_MISSING' | 'FIELD_UNSUITABLE' | 'INVALID';
  /** the link property at fault */
  part: string;
  message: string;
}

/** Which aggregations a field type supports (PIVOT, CHART and STATS views). */
export function aggregationProblem(aggregation: string, field: FieldDefinition): string | null {
  if (aggregation === 'COUNT') return null;
  if ((aggregation === 'SUM' || aggregation === 'AVERAGE') && !isOneOf(NUMERIC_TYPES, field.dataType)) {
    return `${aggregation} needs a NUMBER, DECIMAL or MONEY field; ${field.dataFieldSimplyId} is ${field.dataType}`;
  }
  if ((aggregation === 'MIN' || aggregation === 'MAX') && !isOneOf([...NUMERIC_TYPES, ...DATE_TYPES], field.dataType)) {
    return `${aggregation} needs a NUMBER, DECIMAL, MONEY, DATE or DATE_TIME field; ${field.dataFieldSimplyId} is ${field.dataType}`;
  }
  return null;
}

/** Whether the record search language accepts `operator` on this field (null: it does). */
export function operatorProblem(field: FieldDefinition, operator: string): string | null {
  // a filter without a value: the search language checks the field and the operator before it
  // asks for the value, so only a problem with those two means the operator is refused
  const result = normalizeFilters([field], [{ field: field.dataFieldSimplyId, operator }]);
  if (result.ok) return null;
  const refusal = result.details.find((d) => d.field?.endsWith('.operator') || d.field?.endsWith('.field'));
  return refusal ? refusal.message : null;
}

/**
 * Every problem of one link on a view of `type` whose collection has `fieldsById`. The kind's
 * availability on the view type is not among them (kindUnavailable).
 */
export function linkProblems(kind: LinkKind, link: AnyLink, fieldsById: ReadonlyMap<string, FieldDefinition>, type: ViewType): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const field = fieldsById.get(link.dataFieldSimplyId);
  if (!field) problems.push({ code: 'FIELD_MISSING', part: 'dataFieldSimplyId', message: `${link.dataFieldSimplyId} is not a field of this view's collection` });
  else {
    const unsuitable = fieldUnsuitable(kind, field);
    if (unsuitable) problems.push({ code: 'FIELD_UNSUITABLE', part: 'dataFieldSimplyId', message: unsuitable });
  }
  const fieldOk = field !== undefined && problems.length === 0;
  if (kind === 'display') {
    const { aggregation } = link as DisplayFieldLink;
    if (aggregation !== null) {
      if (!AGGREGATED_TYPES.includes(type)) problems.push({ code: 'INVALID', part: 'aggregation', message: `only ${AGGREGATED_TYPES.join(', ')} views summarize values; this is a ${type} view` });
      else if (fieldOk) {
        const wrong = aggregationProblem(aggregation, field);
        if (wrong) problems.push({ code: 'FIELD_UNSUITABLE', part: 'aggregation', message: wrong });
      }
    }
  } else if (kind === 'filter') {
    const { defaultOperator } = link as FilterFieldLink;
    if (defaultOperator !== null && fieldOk) {
      const wrong = operatorProblem(field, defaultOperator);
      if (wrong) problems.push({ code: 'FIELD_UNSUITABLE', part: 'defaultOperator', message: wrong });
    }
  } else {
    const { endDataFieldSimplyId } = link as CalendarDateInfoFieldLink;
    if (endDataFieldSimplyId !== null) {
      const end = fieldsById.get(endDataFieldSimplyId);
      if (!end) problems.push({ code: 'FIELD_MISSING', part: 'endDataFieldSimplyId', message: `${endDataFieldSimplyId} is not a field of this view's collection` });
      else if (endDataFieldSimplyId === link.dataFieldSimplyId) problems.push({ code: 'INVALID', part: 'endDataFieldSimplyId', message: 'must be another field than dataFieldSimplyId' });
      else if (fieldOk && end.dataType !== field.dataType) {
        problems.push({ code: 'FIELD_UNSUITABLE', part: 'endDataFieldSimplyId', message: `must be a ${field.dataType} field like the start; ${endDataFieldSimplyId} is ${end.dataType}` });
      } else if (!fieldOk && !isOneOf(DATE_TYPES, end.dataType)) {
        problems.push({ code: 'FIELD_UNSUITABLE', part: 'endDataFieldSimplyId', message: `must be a DATE or DATE_TIME field; ${endDataFieldSimplyId} is ${end.dataType}` });
      }
    }
  }
  return problems;
}
