// Turns a postgresql:// URL into pg's separate connection fields. The adapter factories must never
// receive a `connectionString`: pg lets the string win over a `database` override, which is how
// adapter-pg's own shadow database ends up being the main database (pitfall 2).
import type pg from 'pg';
import { InvalidEngineInputError } from './errors.ts';

export interface PgConnectionFields {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  ssl: pg.ClientConfig['ssl'];
  connectionTimeoutMillis?: number;
  /** the `schema` URL parameter Prisma uses; `public` when absent */
  schema: string;
}

const DEFAULT_PORT = 5432;

export function parseDatabaseUrl(databaseUrl: string): PgConnectionFields {
  if (!databaseUrl) {
    throw new InvalidEngineInputError('No database URL is configured: set DATABASE_URL (datasource.url in prisma.config.ts).');
  }
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new InvalidEngineInputError('The database URL is not a valid URL (expected postgresql://user:password@host:port/database).');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new InvalidEngineInputError(`The database URL must start with postgresql:// (got ${url.protocol}//).`);
  }
  const params = url.searchParams;
  // `?host=/var/run/postgresql` selects a unix socket directory, as in libpq
  const host = params.get('host') ?? url.hostname.replace(/^\[(.*)\]$/, '$1');
  const timeoutSeconds = Number(params.get('connect_timeout'));
  return {
    host: host || 'localhost',
    port: url.port ? Number(url.port) : DEFAULT_PORT,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
    ssl: sslFromMode(params.get('sslmode')),
    ...(timeoutSeconds > 0 ? { connectionTimeoutMillis: timeoutSeconds * 1000 } : {}),
    schema: params.get('schema') ?? 'public',
  };
}

function sslFromMode(mode: string | null): pg.ClientConfig['ssl'] {
  switch (mode) {
    case null:
    case 'disable':
      return false;
    case 'verify-ca':
    case 'verify-full':
      return true;
    default:
      // require / prefer / no-verify: encrypt without verifying, like libpq's "require"
      return { rejectUnauthorized: false };
  }
}

/** A postgres identifier quoted for SQL text (database names cannot be bind parameters). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** pg client settings for our own short-lived connections (locks, maintenance, row counts). */
export function clientConfig(fields: PgConnectionFields, applicationName: string): pg.ClientConfig {
  return {
    host: fields.host,
    port: fields.port,
    user: fields.user,
    password: fields.password,
    database: fields.database,
    ssl: fields.ssl,
    application_name: applicationName,
    ...(fields.connectionTimeoutMillis ? { connectionTimeoutMillis: fields.connectionTimeoutMillis } : {}),
  };
}
