// Normalized search filters (src/modules/collections/values/filters.ts) → SQL over a membership
// row `m` and its record `r`. Custom-field filters are probes of DataRecordKey: "the record has
// (or has not) a key of field F matching …", through the (teamId, fieldId, prefix|numKey, recordId)
// indexes; built-in fields read the membership's copies of createdAt/updatedAt and the record's
// lower-cased name. The probes are also returned apart (KeyProbe), so a statement can start from
// the keys of one filter instead of from the collection's memberships (keyMatches).
import type { NormalizedFilter } from '../values/index.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { isMultiValued, isNumericKind, keyKindOf, keyText, prefixOf, PREFIX_BYTES } from './record-keys.ts';
import { likeLiteral, prefixUpperBound, type SqlParams } from '../../db/sql-params.ts';

/** One custom-field filter: whether the record has a key row `k` of the field matching `match`. */
export interface KeyProbe {
  field: FieldDefinition;
  /** placeholder of the field id */
  fieldParam: string;
  /** condition on the key row `k`; null: any key (the field is not empty) */
  match: string | null;
  /** EXISTS (the record has such a key) or NOT EXISTS */
  present: boolean;
  /** the field holds lists: a record may have several matching keys */
  multi: boolean;
}

export interface CompiledFilters {
  /** every filter as a condition over `m` (and `r` when needsRecord), in filter order */
  conditions: string[];
  /** isArchived filter: search archived memberships instead of active ones */
  archived: boolean;
  /** a condition reads the record row (r), so a count must join it */
  needsRecord: boolean;
  /** the custom-field filters, as probes */
  probes: KeyProbe[];
  /** the built-in-field filters: conditions over `m` and `r` */
  rowConditions: string[];
}

export function compileFilters(filters: readonly NormalizedFilter[], fieldsById: ReadonlyMap<string, FieldDefinition>, sql: SqlParams, teamParam: string): CompiledFilters {
  const out: CompiledFilters = { conditions: [], archived: false, needsRecord: false, probes: [], rowConditions: [] };
  // one placeholder per field: probes of the same field can then share a key scan (keyRelation)
  const fieldParams = new Map<bigint, string>();
  const fieldParam = (field: FieldDefinition) => {
    let param = fieldParams.get(field.id);
    if (!param) fieldParams.set(field.id, (param = sql.param(field.id)));
    return param;
  };
  const row = (condition: string) => {
    out.rowConditions.push(condition);
    out.conditions.push(condition);
  };
  for (const filter of filters) {
    switch (filter.field) {
      case 'isArchived':
        out.archived = filter.value === true;
        break;
      case 'createdAt':
      case 'updatedAt': {
        const column = filter.field === 'createdAt' ? 'm."recordCreatedAt"' : 'm."recordUpdatedAt"';
        row(`${column} ${RANGE[filter.operator]!} ${sql.param(String(filter.value))}::timestamptz`);
        break;
      }
      case 'calculatedName':
        out.needsRecord = true;
        row(nameCondition(filter, sql));
        break;
      default: {
        const probe = fieldProbe(fieldsById.get(filter.field)!, filter, sql, fieldParam);
        out.probes.push(probe);
        out.conditions.push(probeCondition(probe, teamParam, 'm."recordId"'));
      }
    }
  }
  return out;
}

/**
 * The probe as a condition on the record id `recordId` (an expression of the outer query).
 * `perRow` keeps it a subplan run for each outer row (OFFSET 0 stops PostgreSQL from turning it
 * into a join): right for a few hundred rows in a known order, where a join would read every key
 * of the filter to hash them (50 000 for `amount >= 500`) and the planner, which cannot see how
 * many keys one field holds, would not know better.
 */
export function probeCondition(probe: KeyProbe, teamParam: string, recordId: string, perRow = false): string {
  const match = probe.match ? ` AND ${probe.match}` : '';
  return `${probe.present ? '' : 'NOT '}EXISTS (SELECT 1 FROM "DataRecordKey" k WHERE k."teamId" = ${teamParam} AND k."fieldId" = ${probe.fieldParam} AND k."recordId" = ${recordId}${match}${perRow ? ' OFFSET 0' : ''})`;
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

function fieldProbe(field: FieldDefinition, filter: NormalizedFilter, sql: SqlParams, fieldParam: (field: FieldDefinition) => string): KeyProbe {
  const numeric = isNumericKind(keyKindOf(field));
  const multi = isMultiValued(field);
  const { operator, value } = filter;
  const probe = (match: string | null, present = true): KeyProbe => ({ field, fieldParam: fieldParam(field), match, present, multi });
  if (value === null) return probe(null, operator !== 'eq');
  switch (operator) {
    case 'eq':
      return probe(equals(numeric, value as string | number | boolean, sql));
    case 'ne':
      return probe(equals(numeric, value as string | number | boolean, sql), false);
    case 'in': {
      const items = value as (string | number | boolean)[];
      if (numeric) return probe(`k."numKey" = ANY(${sql.param(items.map(String))}::numeric[])`);
      const texts = items.map(keyText);
      const prefixes = texts.map(prefixOf);
      const match = `k.prefix = ANY(${sql.param(prefixes)}::bytea[])`;
      return probe(prefixes.every(isWholeKey) ? match : `${match} AND k."textKey" = ANY(${sql.param(texts)}::text[])`);
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
      // numbers by value; date and timestamp keys are short fixed-width ISO strings, whole in `prefix`
      return numeric
        ? probe(`k."numKey" ${RANGE[operator]} ${sql.param(String(value))}::numeric`)
        : probe(`k.prefix ${RANGE[operator]} ${sql.param(prefixOf(keyText(value as string)))}`);
    case 'contains':
      // on reference lists `contains id` is "includes id": an equality probe
      if (keyKindOf(field) === 'id') return probe(equals(false, value as string, sql));
      return probe(`k."textKey" LIKE ${sql.param(`%${likeLiteral(String(value))}%`)}`);
    case 'startsWith':
      return probe(startsWith(String(value), sql));
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

// ------------------------------------------------------------------------------------------
// Matches found from the keys

/** The collection and membership state a search reads, as placeholders. */
export interface MatchScope {
  team: string;
  collection: string;
  collectionId: bigint;
  state: 'ACTIVE' | 'ARCHIVED';
}

/** Membership states other than ACTIVE (the MembershipState enum): an IN list keeps the state
 *  an index condition, where `<> 'ACTIVE'` would read every membership of the collection. */
const NOT_ACTIVE = `('ARCHIVED', 'DELETED')`;

/** The matching records as a relation `d` (one row per record id) and conditions on it. */
export interface Matches {
  from: string;
  where: string[];
}

/**
 * The matching records of a search, starting from the key rows of the filters rather than from
 * every membership of the collection, each joined to its membership `m` (sort keys, state, the
 * built-in-field conditions). Null when no filter can start it: every custom-field filter is a
 * NOT EXISTS, or there is none.
 */
export function keyMatches(compiled: CompiledFilters, scope: MatchScope): Matches | null {
  const keys = keyRelation(compiled, scope.team);
  if (!keys) return null;
  return {
    from: `${keys.from} JOIN "DataRecordMembership" m ON m."teamId" = ${scope.team} AND m."collectionId" = ${scope.collection} AND m."recordId" = d."recordId"`,
    where: [`m.state = '${scope.state}'`, ...keys.where, ...compiled.rowConditions],
  };
}

/**
 * The active matching records of a collection from their keys alone, with no membership read per
 * match; null where that does not hold (archived memberships wanted, a condition on a built-in
 * field, the fields of another collection as in a SMART one, or no filter to start from).
 *
 * The keys of a collection's own fields are those of records created in it, and every such
 * record has its membership there from the transaction that created it (a delete only changes its
 * state), so "an active member" is "not an archived or deleted one": a probe of the collection's
 * few non-active memberships. Reading each of 10 000 matches' membership cost more than finding
 * them.
 */
export function ownActiveMatches(compiled: CompiledFilters, scope: MatchScope): Matches | null {
  if (scope.state !== 'ACTIVE' || compiled.rowConditions.length > 0) return null;
  const keys = keyRelation(compiled, scope.team);
  if (!keys || keys.field.collectionId !== scope.collectionId) return null;
  const live = `NOT EXISTS (SELECT 1 FROM "DataRecordMembership" x WHERE x."teamId" = ${scope.team} AND x."collectionId" = ${scope.collection} AND x."recordId" = d."recordId" AND x.state IN ${NOT_ACTIVE})`;
  return { from: keys.from, where: [...keys.where, live] };
}

/**
 * The record ids that have the keys one present probe asks for (the driver), as `d`, and the
 * other probes as EXISTS / NOT EXISTS conditions on `d."recordId"`. The planner may still start
 * from another probe's keys (a semi-join it turns around), but every other relation stays
 * correlated on the record id: with the statistics of a new field or collection missing, where
 * every estimate is one row, joined key scans became nested loops over whole scans (a page of
 * 1 200 records took minutes), where a probe by record id is at worst a scan of one field's keys.
 * Other probes of the driver's field, single-valued, read the same key row: one key scan for
 * `amount > 100 AND amount < 200`. A list field may hold several matching keys: it drives (with
 * DISTINCT) only when no single-valued field can.
 */
function keyRelation(compiled: CompiledFilters, team: string): (Matches & { field: FieldDefinition }) | null {
  const rank = (p: KeyProbe) => (p.multi ? 2 : 0) + (p.match === null ? 1 : 0);
  let driver: KeyProbe | null = null;
  for (const p of compiled.probes) if (p.present && (!driver || rank(p) < rank(driver))) driver = p;
  if (!driver) return null;
  const started = driver.multi ? [driver] : compiled.probes.filter((p) => p.present && p.field.id === driver.field.id);
  const matches = started.flatMap((p) => (p.match ? [` AND ${p.match}`] : [])).join('');
  const from = `(SELECT ${driver.multi ? 'DISTINCT ' : ''}k."recordId" FROM "DataRecordKey" k WHERE k."teamId" = ${team} AND k."fieldId" = ${driver.fieldParam}${matches}) d`;
  const where = compiled.probes.filter((p) => !started.includes(p)).map((p) => probeCondition(p, team, 'd."recordId"'));
  return { from, where, field: driver.field };
}
