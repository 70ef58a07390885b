// The admin list's page in one statement (GET /v1/data-views/admin-list is an administration
// screen's first read, and a team may hold thousands of views): the rows of the page and the total
// of matching views together, by a window count, instead of a page query and a count query. A page
// past the last has no row to carry the total: only then is it counted on its own.
import type pg from 'pg';
import type { DataView } from '../../generated/prisma/client.ts';

const COLUMNS = `id, "simplyId", "teamId", "collectionId", name, description, "viewType", "isPublished", "internalName", config, "createdAt", "updatedAt"`;

function toDataView(r: Record<string, any>): DataView {
  return {
    id: BigInt(r.id),
    simplyId: r.simplyId,
    teamId: BigInt(r.teamId),
    collectionId: BigInt(r.collectionId),
    name: r.name,
    description: r.description,
    viewType: r.viewType,
    isPublished: r.isPublished,
    internalName: r.internalName,
    config: r.config,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The team's views (of one collection, when given), newest first: one page and the total. */
export async function adminListPage(db: pg.Pool, teamId: bigint, collectionId: bigint | null, limit: number, offset: number): Promise<{ rows: DataView[]; total: number }> {
  const where = `"teamId" = $1${collectionId === null ? '' : ' AND "collectionId" = $2'}`;
  const values = collectionId === null ? [teamId] : [teamId, collectionId];
  const { rows } = await db.query(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM "DataView" WHERE ${where} ORDER BY "createdAt" DESC, id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    values,
  );
  if (rows.length > 0) return { rows: rows.map(toDataView), total: rows[0].total as number };
  const counted = await db.query(`SELECT count(*)::int AS total FROM "DataView" WHERE ${where}`, values);
  return { rows: [], total: counted.rows[0].total as number };
}
