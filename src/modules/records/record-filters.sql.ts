// Normalized search filters (src/modules/collections/values/filters.ts) → SQL conditions over a membership row
// `m` and its record `r`. Custom-field filters become EXISTS / NOT EXISTS probes of
// DataRecordKey through its (teamId, fieldId, prefix|numKey, recordId) indexes; built-in fields
// read the membership's copies of createdAt/updatedAt and the record's lower-cased name.
import type { NormalizedFilter } from '../collections/values/index.ts';
import type { FieldDefinition } from '../collections/team-schema.ts';
import { isNumericKind, keyKindOf, keyText, prefixOf, PREFIX_BYTES } from './record-keys.ts';
import { likeLiteral, prefixUpperBound, type SqlParams } from './sql-params.ts';

export interface CompiledFilters {
  conditions: string[];
  /** isArchived filter: search archived memberships instead of active ones */
  archived: boolean;
  /** a condition reads the record row (r), so a count must join it */
  needsRecord: boolean;
}

export function compileFilters(filters: readonly NormalizedFilter[], fieldsById: ReadonlyMap<string, FieldDefinition>, sql: SqlParams, teamParam: string): CompiledFilters {
  const out: CompiledFilters = { conditions: [], archived: false, needsRecord: false };
  for (const filter of filters) {
    switch (filter.field) {
      case 'isArchived':
        out.archived = filter.value === true;
        break;
      case 'createdAt':
      case 'updatedAt': {
        const column = filter.field === 'createdAt' ? 'm."recordCreatedAt"' : 'm."recordUpdatedAt"';
        out.conditions.push(`${column} ${RANGE[filter.operator]!} ${sql.param(String(filter.value))}::timestamptz`);
        break;
      }
      case 'calculatedName':
        out.needsRecord = true;
        out.conditions.push(nameCondition(filter, sql));
        break;
      default: {
        const field = fieldsById.get(filter.field)!;
        out.conditions.push(fieldCondition(field, filter, sql, teamParam));
      }
    }
  }
  return out;
}

const RANGE: Partial<Record<string, string>> = { gt: '>', lt: '<', gte: '>=', lte: '<=' };

function nameCondition(filter: NormalizedFilter, sql: SqlParams): string {
  const value = String(filter.value ?? '');
  switch (filter.operator) {
    case 'eq':
      return filter.value === null ? `r."nameKey" = ''` : `r."nameKey" = ${sql.param(value)}`;
    case 'ne':
      return filter.value === null ? `r."nameKey" <> ''` : `r."nameKey" <> ${sql.param(value)}`;
    case 'contains':
      return `r."nameKey" LIKE ${sql.param(`%${likeLiteral(value)}%`)}`;
    default:
      return `r."nameKey" LIKE ${sql.param(`${likeLiteral(value)}%`)}`;
  }
}

function fieldCondition(field: FieldDefinition, filter: NormalizedFilter, sql: SqlParams, teamParam: string): string {
  const probe = (match: string | null) =>
    `SELECT 1 FROM "DataRecordKey" k WHERE k."teamId" = ${teamParam} AND k."fieldId" = ${sql.param(field.id)} AND k."recordId" = m."recordId"${match ? ` AND ${match}` : ''}`;
  const numeric = isNumericKind(keyKindOf(field));
  const { operator, value } = filter;
  if (value === null) return operator === 'eq' ? `NOT EXISTS (${probe(null)})` : `EXISTS (${probe(null)})`;
  switch (operator) {
    case 'eq':
      return `EXISTS (${probe(equals(numeric, value as string | number | boolean, sql))})`;
    case 'ne':
      return `NOT EXISTS (${probe(equals(numeric, value as string | number | boolean, sql))})`;
    case 'in': {
      const items = value as (string | number | boolean)[];
      if (numeric) return `EXISTS (${probe(`k."numKey" = ANY(${sql.param(items.map(String))}::numeric[])`)})`;
      const texts = items.map(keyText);
      const prefixes = texts.map(prefixOf);
      const match = `k.prefix = ANY(${sql.param(prefixes)}::bytea[])`;
      return `EXISTS (${probe(prefixes.every(isWholeKey) ? match : `${match} AND k."textKey" = ANY(${sql.param(texts)}::text[])`)})`;
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
      // numbers by value; date and timestamp keys are short fixed-width ISO strings, whole in `prefix`
      return numeric
        ? `EXISTS (${probe(`k."numKey" ${RANGE[operator]} ${sql.param(String(value))}::numeric`)})`
        : `EXISTS (${probe(`k.prefix ${RANGE[operator]} ${sql.param(prefixOf(keyText(value as string)))}`)})`;
    case 'contains':
      // on reference lists `contains id` is "includes id": an equality probe
      if (keyKindOf(field) === 'id') return `EXISTS (${probe(equals(false, value as string, sql))})`;
      return `EXISTS (${probe(`k."textKey" LIKE ${sql.param(`%${likeLiteral(String(value))}%`)}`)})`;
    case 'startsWith':
      return `EXISTS (${probe(startsWith(String(value), sql))})`;
  }
}

function equals(numeric: boolean, value: string | number | boolean, sql: SqlParams): string {
  if (numeric) return `k."numKey" = ${sql.param(String(value))}::numeric`;
  const text = keyText(value);
  const prefix = prefixOf(text);
  return isWholeKey(prefix) ? `k.prefix = ${sql.param(prefix)}` : `k.prefix = ${sql.param(prefix)} AND k."textKey" = ${sql.param(text)}`;
}

/**
 * An operand shorter than PREFIX_BYTES is its whole prefix, and a stored prefix that long or
 * shorter is its whole key, so prefix equality is key equality: the probe then needs no
 * `textKey` check and stays an index-only lookup on (teamId, fieldId, prefix, recordId). The
 * redundant check also made the planner multiply two correlated selectivities and underestimate
 * an equality match by the number of distinct values (`status = 'active'`: 60 rows for 20 000).
 * An operand of PREFIX_BYTES or more may share its prefix with longer keys: it keeps the check.
 */
function isWholeKey(prefix: Buffer): boolean {
  return prefix.length < PREFIX_BYTES;
}

/** A byte range on the prefix when the pattern fits in it; else the prefix must equal the
 *  pattern's first bytes and the full key is checked. */
function startsWith(pattern: string, sql: SqlParams): string {
  const bytes = Buffer.from(pattern, 'utf8');
  if (bytes.length <= PREFIX_BYTES) {
    const upper = prefixUpperBound(bytes);
    const low = `k.prefix >= ${sql.param(bytes)}`;
    return upper ? `${low} AND k.prefix < ${sql.param(upper)}` : low;
  }
  return `k.prefix = ${sql.param(prefixOf(pattern))} AND k."textKey" LIKE ${sql.param(`${likeLiteral(pattern)}%`)}`;
}
