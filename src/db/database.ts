// Which PostgreSQL the platform uses: DATABASE_URL when set, otherwise the embedded cluster in
// DATA_DIR (shared with a running server rather than started twice).
import { startEmbeddedPostgres } from './embedded-postgres.ts';

/** The settings this needs (the platform's validated configuration has them). */
export interface DatabaseSettings {
  DATABASE_URL?: string;
  dataDir: string;
  EMBEDDED_PG_PORT?: number;
}

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function resolveDatabase(config: DatabaseSettings, log?: (line: string) => void): Promise<DatabaseHandle> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, stop: async () => {} };
  const db = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.EMBEDDED_PG_PORT, log });
  return { url: db.url, embedded: true, stop: db.stop };
}
