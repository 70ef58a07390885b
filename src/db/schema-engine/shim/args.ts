// The schema-engine binary's command line, as the Prisma 7.10 CLI builds it:
//   --version
//   --datasource '{"url":...}' cli can-connect-to-database | create-database | drop-database
//   [--datamodels <path>]... [--datasource '<json>'] [--enabled-preview-features a,b] [--extension-types '<json>']
import { parseArgs } from 'node:util';

export interface ShimDatasource {
  url: string;
  shadowDatabaseUrl?: string | undefined;
}

export type ShimInvocation =
  | { mode: 'version' }
  | { mode: 'help' }
  | { mode: 'cli'; command: string; datasource: ShimDatasource | null }
  | { mode: 'rpc'; datamodelPaths: string[]; datasource: ShimDatasource | null };

export class ShimUsageError extends Error {
  override name = 'ShimUsageError';
}

export function parseShimArgs(argv: string[]): ShimInvocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        version: { type: 'boolean', short: 'V' },
        help: { type: 'boolean', short: 'h' },
        datamodels: { type: 'string', multiple: true },
        datasource: { type: 'string' },
        // accepted for compatibility; the wasm engine has no use for them
        'enabled-preview-features': { type: 'string' },
        'extension-types': { type: 'string' },
      },
    });
  } catch (error) {
    throw new ShimUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.version) return { mode: 'version' };
  if (values.help) return { mode: 'help' };
  const datasource = values.datasource === undefined ? null : parseDatasource(values.datasource);
  if (positionals[0] === 'cli') {
    const command = positionals[1];
    if (!command) throw new ShimUsageError('cli: missing command (can-connect-to-database, create-database, drop-database)');
    return { mode: 'cli', command, datasource };
  }
  if (positionals.length > 0) throw new ShimUsageError(`unexpected argument: ${positionals[0]}`);
  return { mode: 'rpc', datamodelPaths: values.datamodels ?? [], datasource };
}

function parseDatasource(json: string): ShimDatasource {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ShimUsageError('--datasource must be JSON like {"url":"postgresql://..."}');
  }
  const record = value as { url?: unknown; shadowDatabaseUrl?: unknown } | null;
  if (typeof record?.url !== 'string') throw new ShimUsageError('--datasource needs a "url" string');
  return {
    url: record.url,
    shadowDatabaseUrl: typeof record.shadowDatabaseUrl === 'string' && record.shadowDatabaseUrl ? record.shadowDatabaseUrl : undefined,
  };
}
