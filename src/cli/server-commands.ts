// The commands of `svc` that run the platform or work on its database directly: start, worker,
// migrate, bootstrap, counts. Loaded only for these (svc.ts), so the client commands start fast.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../main/config.ts';
import { resolveDatabase } from '../db/database.ts';
import { leaveSignalsToTheApplication } from '../db/embedded-postgres-signals.ts';
import { createPool, createPrisma } from '../db/prisma.ts';
import { applyPendingMigrations, migrationStatus } from '../db/schema-engine/migrations.ts';
import { JwtService } from '../app/auth/jwt-service.ts';
import { loadOrCreateSigningKey } from '../app/auth/signing-key.ts';
import { startApp } from '../main/server.ts';
import { closeServices, createServices } from '../main/services.ts';
import { createLogger, logLinesOf } from '../app/logger.ts';
import { Metrics } from '../app/http/metrics.ts';
import { startMetricsListener } from '../app/http/metrics-endpoint.ts';
import type { Logger } from 'pino';
import { bootstrapTeam } from '../modules/teams/index.ts';
import { tlsCertificateFile } from '../app/http/tls.ts';
import { checkCounts } from '../kernel/index.ts';
import { fullUsage } from './area-commands.ts';


/**
 * The last log line is "stopped", once everything is closed. pino writes asynchronously and the
 * exit writes what is still queued synchronously: a line whose write was under way at the exit
 * (the embedded PostgreSQL's last words) would land after "stopped", so the log is flushed first.
 */
function onSignals(logger: Logger, stop: () => Promise<void>): void {
  leaveSignalsToTheApplication();
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop()
        .then(() => new Promise<void>((flushed) => logger.flush(() => flushed())))
        .then(
          () => {
            logger.info('stopped');
            process.exit(0);
          },
          (error) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
}

async function start(config: Config): Promise<number> {
  const logger = createLogger(config.LOG_LEVEL, 'svc', config.LOG_FORMAT);
  const db = await resolveDatabase(config, logLinesOf(logger, 'postgres'));
  const app = await startApp({ config, databaseUrl: db.url, logger });
  onSignals(logger, async () => {
    logger.info('shutting down: draining requests and jobs');
    await app.close();
    await db.stop();
  });
  logger.info({ baseUrl: app.baseUrl, embeddedDatabase: db.embedded, tlsCertificate: app.tls?.certFile, metricsUrl: app.metricsListener?.url }, 'ready');
  // for the person at the terminal; stdout carries only JSON log lines
  process.stderr.write(`svc platform ready at ${app.baseUrl}\n`);
  if (app.tls?.selfSigned) process.stderr.write(`self-signed certificate: ${app.tls.certFile} (curl --cacert <file>)\n`);
  return -1;
}

async function worker(config: Config): Promise<number> {
  const logger = createLogger(config.LOG_LEVEL, 'svc-worker', config.LOG_FORMAT);
  const db = await resolveDatabase(config, logLinesOf(logger, 'postgres'));
  const services = await createServices({ config, databaseUrl: db.url, logger });
  // a worker's own figures (its job outcomes, its pools) on METRICS_PORT, when set
  const metricsListener =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsListener({ host: config.METRICS_HOST, port: config.METRICS_PORT, token: config.METRICS_TOKEN, metrics: new Metrics(services) });
  await services.jobs.start({ work: true });
  onSignals(logger, async () => {
    logger.info('worker shutting down: finishing in-flight jobs');
    await metricsListener?.close();
    await closeServices(services);
    await db.stop();
  });
  logger.info({ metricsUrl: metricsListener?.url }, 'worker running');
  return -1;
}

async function migrate(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { status: { type: 'boolean' } } });
  const db = await resolveDatabase(config);
  try {
    if (values.status) {
      process.stdout.write(`${JSON.stringify(await migrationStatus({ databaseUrl: db.url }), null, 2)}\n`);
    } else {
      const { applied } = await applyPendingMigrations({ databaseUrl: db.url });
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    }
    return 0;
  } finally {
    await db.stop();
  }
}

async function bootstrap(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { team: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'system-admin': { type: 'boolean' } },
  });
  if (!values.team || !values.email) {
    process.stderr.write(await fullUsage());
    return 2;
  }
  const db = await resolveDatabase(config);
  const pool = createPool(db.url, 2, 'svc-bootstrap');
  try {
    await applyPendingMigrations({ databaseUrl: db.url });
    const prisma = createPrisma(pool);
    const result = await bootstrapTeam(prisma, {
      teamName: values.team,
      email: values.email,
      password: values.password,
      isSystemAdmin: values['system-admin'],
    });
    const jwt = new JwtService(await loadOrCreateSigningKey(config.jwtSigningKeyFile), config);
    const { token } = await jwt.issueAccessToken(result.userSimplyId);
    // the same base URL as `svc start` prints for these settings
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const baseUrl = config.PUBLIC_BASE_URL ?? `https://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
    // one line of JSON, so that `… bootstrap > team.json` and the README's examples read it directly;
    // behind a TLS-terminating proxy the certificate is the proxy's, which the platform does not know
    process.stdout.write(
      `${JSON.stringify({
        baseUrl,
        caCertFile: config.TRUST_PROXY ? null : tlsCertificateFile(config),
        teamSimplyId: result.teamSimplyId,
        userSimplyId: result.userSimplyId,
        email: result.email,
        password: result.password,
        userToken: token,
        apiKey: result.apiKey,
        apiKeySimplyId: result.apiKeySimplyId,
      })}\n`,
    );
    await prisma.$disconnect();
    return 0;
  } finally {
    await pool.end();
    await db.stop();
  }
}

async function counts(config: Config, args: string[]): Promise<number> {
  let values: { fix?: boolean; team?: string };
  try {
    ({ values } = parseArgs({ args, options: { fix: { type: 'boolean' }, team: { type: 'string' } } }));
  } catch (error) {
    // exit code 1 means "mismatches": a mistyped command line must not look like one
    process.stderr.write(`svc: ${(error as Error).message}\n${await fullUsage()}`);
    return 2;
  }
  const db = await resolveDatabase(config);
  const pool = createPool(db.url, 2, 'svc-counts');
  try {
    let teamId: bigint | undefined;
    if (values.team !== undefined) {
      const { rows } = await pool.query(`SELECT id FROM "Team" WHERE "simplyId" = $1`, [values.team]);
      if (rows.length === 0) {
        process.stderr.write(`svc: no team ${values.team}\n`);
        return 2;
      }
      teamId = BigInt(rows[0].id);
    }
    let checked: Awaited<ReturnType<typeof checkCounts>>;
    try {
      checked = await checkCounts(pool, { teamId, fix: values.fix });
    } catch (error) {
      // 1 would read as "mismatches found"
      const missing = (error as { code?: string }).code === '42P01';
      process.stderr.write(`svc: ${missing ? 'the database has no record counters yet: run `svc migrate` first' : (error as Error).message}\n`);
      return 2;
    }
    const { collections, mismatches } = checked;
    for (const m of mismatches) {
      const { teamSimplyId, collectionSimplyId, state, counted, recorded, fixed } = m;
      process.stdout.write(`${JSON.stringify({ teamSimplyId, collectionSimplyId, state, counted, recorded, fixed })}\n`);
    }
    const outcome = mismatches.length === 0 ? 'consistent' : values.fix ? 'fixed' : 'NOT consistent (run with --fix to repair)';
    process.stderr.write(`svc counts: ${collections} collections checked, ${mismatches.length} mismatches: ${outcome}\n`);
    return mismatches.length > 0 && !values.fix ? 1 : 0;
  } finally {
    await pool.end();
    await db.stop();
  }
}

/** Runs a server command; null when `command` is none of them. */
export async function runServerCommand(command: string | undefined, rest: string[]): Promise<number | null> {
  // (svc.ts has put the serving processes under their heap settings before loading this file)
  if (command === 'start' || command === 'worker') leaveSignalsToTheApplication();
  if (!['start', 'worker', 'migrate', 'bootstrap', 'counts'].includes(command ?? '')) return null;
  const config = loadConfig();
  switch (command) {
    case 'start':
      return start(config);
    case 'worker':
      return worker(config);
    case 'migrate':
      return migrate(config, rest);
    case 'bootstrap':
      return bootstrap(config, rest);
    default:
      return counts(config, rest);
  }
}
