// Whether a database already holds every migration folder, read from `_prisma_migrations` with one
// query. A server starting on an up-to-date database (every start but the first after an upgrade)
// then never instantiates the schema engine: its 5 MB of WebAssembly, compiled, and its memory would
// otherwise stay resident for the life of the process (about 13 MiB) to report "nothing to apply".
// Anything else (a folder not applied, a failed or unfinished migration, no table yet) is left to the
// engine, which applies or refuses exactly as `prisma migrate deploy` does. Like deploy, this does not
// compare checksums: a migration edited after it was applied is not applied again.
import type pg from 'pg';
import { quoteIdentifier } from './connection-config.ts';

const UNDEFINED_TABLE = '42P01';

export async function allApplied(client: pg.Client, schema: string, folders: readonly { path: string }[]): Promise<boolean> {
  let rows: { migration_name: string; finished: boolean }[];
  try {
    ({ rows } = await client.query(
      `SELECT migration_name, finished_at IS NOT NULL AS finished FROM ${quoteIdentifier(schema)}._prisma_migrations WHERE rolled_back_at IS NULL`,
    ));
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return false;
    throw error;
  }
  if (rows.some((row) => !row.finished)) return false;
  const applied = new Set(rows.map((row) => row.migration_name));
  return folders.every((folder) => applied.has(folder.path));
}
