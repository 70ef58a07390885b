// The template lists in SQL: the filters (name search, usage type, the caller's visibility) and
// the sorts are one statement, and the list columns leave the design itself out (a design may be
// half a megabyte; a list entry says only whether there is one).
import type pg from 'pg';

/** A template as lists show it (the design and page settings only as flags). */
export interface TemplateRow {
  id: bigint;
  simplyId: string;
  kind: string;
  name: unknown;
  description: unknown;
  textContent: string | null;
  hasDesign: boolean;
  hasDocumentSettings: boolean;
  deliveryMethod: string;
  usageTypes: string[];
  dataCollectionId: bigint | null;
  templateScope: string | null;
  ownerMembershipId: bigint | null;
  ownerSimplyId: string | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TemplateFilter {
  teamId: bigint;
  includeArchived: boolean;
  /** lower-cased text the name must contain */
  search?: string | null;
  usageType?: string | null;
  /** only document templates of these collections */
  collectionIds?: readonly bigint[];
  /** the caller's visibility; null: sees everything (a team admin) */
  visibility: null | {
    /** collections whose document templates the caller may read; null: all */
    readableCollectionIds: readonly bigint[] | null;
    /** the caller's membership (its PERSONAL templates), or null */
    membershipId: bigint | null;
  };
}

export type TemplateSort = 'createdAt_DESC' | 'createdAt_ASC' | 'name_ASC';

const ORDER: Record<TemplateSort, string> = {
  createdAt_DESC: 't."createdAt" DESC, t.id DESC',
  createdAt_ASC: 't."createdAt" ASC, t.id ASC',
  name_ASC: 't."nameKey" ASC, t.id ASC',
};

const COLUMNS = `t.id, t."simplyId", t.kind, t.name, t.description, t."textContent",
  (t."designHtml" IS NOT NULL OR t."designJson" IS NOT NULL) AS "hasDesign", (t."documentSettings" IS NOT NULL) AS "hasDocumentSettings",
  t."deliveryMethod", t."usageTypes", t."dataCollectionId", t."templateScope", t."ownerMembershipId", m."simplyId" AS "ownerSimplyId",
  t."archivedAt", t."createdAt", t."updatedAt"`;

const FROM = `"ContentTemplate" t LEFT JOIN "TeamMembership" m ON m."teamId" = t."teamId" AND m.id = t."ownerMembershipId"`;

function where(f: TemplateFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [f.teamId];
  const add = (v: unknown) => `$${values.push(v)}`;
  const parts = ['t."teamId" = $1'];
  if (!f.includeArchived) parts.push('t."archivedAt" IS NULL');
  if (f.search) parts.push(`strpos(t."nameKey", ${add(f.search)}) > 0`);
  if (f.usageType === 'STANDALONE') parts.push('cardinality(t."usageTypes") = 0');
  else if (f.usageType) parts.push(`${add(f.usageType)} = ANY(t."usageTypes")`);
  if (f.collectionIds) parts.push(`t.kind = 'DOCUMENT' AND t."dataCollectionId" = ANY(${add(f.collectionIds)}::bigint[])`);
  if (f.visibility) {
    const readable = f.visibility.readableCollectionIds === null ? 'true' : `t."dataCollectionId" = ANY(${add(f.visibility.readableCollectionIds)}::bigint[])`;
    const own = f.visibility.membershipId === null ? 'false' : `t."ownerMembershipId" = ${add(f.visibility.membershipId)}`;
    parts.push(`(t.kind <> 'DOCUMENT' OR (${readable} AND (t."templateScope" IS DISTINCT FROM 'PERSONAL' OR ${own})))`);
  }
  return { text: parts.join(' AND '), values };
}

export function toTemplateRow(r: Record<string, any>): TemplateRow {
  return {
    id: BigInt(r.id),
    simplyId: r.simplyId,
    kind: r.kind,
    name: r.name,
    description: r.description,
    textContent: r.textContent,
    hasDesign: r.hasDesign,
    hasDocumentSettings: r.hasDocumentSettings,
    deliveryMethod: r.deliveryMethod,
    usageTypes: r.usageTypes ?? [],
    dataCollectionId: r.dataCollectionId === null ? null : BigInt(r.dataCollectionId),
    templateScope: r.templateScope,
    ownerMembershipId: r.ownerMembershipId === null ? null : BigInt(r.ownerMembershipId),
    ownerSimplyId: r.ownerSimplyId,
    archivedAt: r.archivedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function findTemplatePage(db: pg.Pool, f: TemplateFilter, sort: TemplateSort, limit: number, offset: number): Promise<TemplateRow[]> {
  const w = where(f);
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${w.text} ORDER BY ${ORDER[sort]} LIMIT ${limit} OFFSET ${offset}`, w.values);
  return rows.map(toTemplateRow);
}

export async function countTemplates(db: pg.Pool, f: TemplateFilter): Promise<number> {
  const w = where(f);
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM "ContentTemplate" t WHERE ${w.text}`, w.values);
  return rows[0].n as number;
}
