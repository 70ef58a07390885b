// Run by tracing.test.ts as a process of its own (`node test/telemetry/tracing-off-probe.ts`):
// records every module the process resolves, starts two servers with tracing off (no OTEL_*
// setting at all; an OTLP endpoint with OTEL_TRACES_EXPORTER=none), sends each a REST call, a
// GraphQL query and a health check, lets its job workers run, closes it, and prints one JSON line:
// the statuses answered, the @opentelemetry packages loaded and which of our own files imported
// one. (prom-client itself requires @opentelemetry/api, the no-op API, for its exemplars: that
// package is expected; an SDK package, or an import from our code, is not.)
// Env: DATABASE_URL (migrated), DATA_DIR, OTLP_ENDPOINT (a receiver that must hear nothing).
import https from 'node:https';
import { registerHooks } from 'node:module';
import path from 'node:path';

const ROOT = new URL('../../', import.meta.url).href;
const opentelemetryPackages = new Set<string>();
const importedFromOurCode = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const otel = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(resolved.url);
    if (otel) {
      opentelemetryPackages.add(otel[1]!);
      const parent = context.parentURL ?? '';
      if (parent.startsWith(ROOT) && !parent.includes('/node_modules/')) importedFromOurCode.add(parent.slice(ROOT.length));
    }
    return resolved;
  },
});

const { loadConfig } = await import('../../src/main/config.ts');
const { startApp } = await import('../../src/main/server.ts');
const { createLogger } = await import('../../src/app/logger.ts');

function call(baseUrl: string, ca: string, method: string, urlPath: string, body?: unknown, token?: string): Promise<number> {
  const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = https.request(new URL(urlPath, baseUrl), { method, ca, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body ? JSON.stringify(body) : undefined);
  });
}

async function serveOnce(env: Record<string, string>, dataDir: string): Promise<number[]> {
  const config = loadConfig({ NODE_ENV: 'test', ...env }, { DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000 });
  const app = await startApp({ config, databaseUrl: process.env.DATABASE_URL!, migrate: false, runJobs: true, jobPollingIntervalSeconds: 0.5, logger: createLogger('silent') });
  try {
    const ca = app.tls!.cert;
    const answered = [
      await call(app.baseUrl, ca, 'GET', '/readyz'),
      // an unknown key: looked up in the database, then refused
      await call(app.baseUrl, ca, 'POST', '/v1/data-records', { fields: {} }, 'svc_live_unknownkeyunknownkeyunknownkey'),
      await call(app.baseUrl, ca, 'POST', '/graphql', { query: '{ __typename }' }),
      await call(app.baseUrl, ca, 'GET', '/healthz'),
    ];
    // a few polls of the job workers
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return answered;
  } finally {
    await app.close();
  }
}

const dataDir = process.env.DATA_DIR!;
const answered = [
  await serveOnce({}, path.join(dataDir, 'a')),
  await serveOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTLP_ENDPOINT!, OTEL_TRACES_EXPORTER: 'none' }, path.join(dataDir, 'b')),
];
process.stdout.write(`${JSON.stringify({ answered, opentelemetryPackages: [...opentelemetryPackages].sort(), importedFromOurCode: [...importedFromOurCode] })}\n`);
