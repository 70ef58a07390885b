// The team's canned responses as the conversations area reads them: live MESSAGE templates whose
// usage types include CANNED_RESPONSE (the composer's library; docs/api/conversations.md "Canned
// responses"). Read here, in the area that owns the table, and exported through index.ts.
import type pg from 'pg';

export interface CannedResponseRow {
  id: bigint;
  simplyId: string;
  name: unknown;
  description: unknown;
  textContent: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const WHERE = `"teamId" = $1 AND kind = 'MESSAGE' AND "archivedAt" IS NULL AND 'CANNED_RESPONSE' = ANY("usageTypes")`;
const COLUMNS = `id, "simplyId", name, description, "textContent", "createdAt", "updatedAt"`;

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of canned responses, by name; `q` matches the name or the text, without case. */
export async function cannedResponsePage(db: pg.Pool, teamId: bigint, q: string | null, limit: number, offset: number): Promise<{ rows: CannedResponseRow[]; total: number }> {
  const pattern = q ? `%${likeLiteral(q.toLowerCase())}%` : null;
  const search = `($2::text IS NULL OR "nameKey" LIKE $2 OR lower(coalesce("textContent", '')) LIKE $2)`;
  const [page, count] = await Promise.all([
    db.query(`SELECT ${COLUMNS} FROM "ContentTemplate" WHERE ${WHERE} AND ${search} ORDER BY "nameKey", id LIMIT $3 OFFSET $4`, [teamId, pattern, limit, offset]),
    db.query(`SELECT count(*)::int AS n FROM "ContentTemplate" WHERE ${WHERE} AND ${search}`, [teamId, pattern]),
  ]);
  return { rows: page.rows.map((r) => ({ ...r, id: BigInt(r.id) })), total: count.rows[0].n };
}

export async function findCannedResponse(db: pg.Pool, teamId: bigint, simplyId: string): Promise<CannedResponseRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM "ContentTemplate" WHERE ${WHERE} AND "simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? { ...rows[0], id: BigInt(rows[0].id) } : null;
}
