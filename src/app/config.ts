// Every setting the platform reads from the environment, validated once at start: the core's here,
// each area's in its own slice (`src/modules/<area>/<area>.config.ts`, named by its manifest), merged
// into one schema by the composition root (src/main/config.ts). README.md "Configuration" lists
// them all; keep the two in step.
import path from 'node:path';
import { z } from 'zod';

/** a yes/no setting: true, false, 1, 0, yes, no */
export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const coreSettings = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  PUBLIC_BASE_URL: z.string().url().optional(),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  TRUST_PROXY: envBool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // json: one JSON object per line on stdout; pretty: readable, coloured lines for development
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  // /metrics: a bearer token that the main port (and the metrics listener) require; unset: the main port does not serve it
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  // a separate plain-HTTP listener serving only /metrics (0: any free port)
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  GRAPHIQL: envBool.optional(),
  JOBS_IN_SERVER: envBool.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  CREDENTIAL_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  JWT_ISSUER: z.string().default('svc-platform'),
  JWT_AUDIENCE: z.string().default('svc-api'),
  JWT_ACCESS_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  JWT_SIGNING_KEY_FILE: z.string().optional(),
  IDP_JWKS_URL: z.string().url().optional(),
  IDP_ISSUER: z.string().optional(),
  IDP_AUDIENCE: z.string().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // on SIGTERM, how long /readyz answers 503 while requests are still served (default: 5000 in production, else 0)
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  // handler slots per queue in this process, overriding the queue's default ("webhooks.deliver=32,mail.send=8")
  JOB_CONCURRENCY: z
    .string()
    .regex(/^\s*([a-z0-9_.-]+=[1-9]\d{0,3}\s*(,\s*|$))*$/i, 'a comma-separated list of <queue>=<1-9999>')
    .default('')
    .transform((raw) => Object.fromEntries(raw.split(',').filter((item) => item.trim()).map((item) => item.split('=').map((s) => s.trim())).map(([queue, n]) => [queue!, Number(n)]))),
  // AES-256-GCM key for secrets that must be read back (webhook signing secrets); created on first start
  SECRETS_KEY_FILE: z.string().optional(),
  // traces (OpenTelemetry, OTLP over HTTP): on when an OTLP endpoint is set or OTEL_TRACES_EXPORTER=otlp,
  // off by default (src/app/telemetry/tracing-settings.ts, docs/observability.md "Traces")
  OTEL_SDK_DISABLED: envBool.default(false),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  // `key=value,…` (values percent-encoded), e.g. a collector's API key: never logged
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().min(1).optional(),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: z.coerce.number().int().min(1).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).default(5000),
  // the one AI model (any OpenAI-compatible Chat Completions endpoint, src/app/ai/, docs/ai.md): configured only
  // when AI_BASE_URL and AI_MODEL are both set. An operator's own endpoint, so loopback and plain http are allowed
  AI_BASE_URL: z.string().url().optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).optional(),
  // one model step (one call, its retries and their waits) may take this long
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  // further attempts after a 429, a 5xx or a network error; other failures are never retried
  AI_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // tokens (input and output) one run of a feature (e.g. one assistant turn with its tool steps) may use
  AI_RUN_TOKEN_BUDGET: z.coerce.number().int().min(1).default(50_000),
});

/** The validated environment; each area's slice adds its settings by merging into this interface. */
export interface Env extends z.infer<typeof coreSettings> {}

/** The environment with the values derived from it; slices add theirs (`resolve`) by merging too. */
export interface Config extends Env {
  dataDir: string;
  jwtSigningKeyFile: string;
  secretsKeyFile: string;
  graphiql: boolean;
  /** SHUTDOWN_GRACE_MS, or its default for NODE_ENV */
  shutdownGraceMs: number;
}

export class ConfigError extends Error {}

/** An area's settings: their schema, and what follows from them (derived values, checks across settings). */
export interface ConfigSlice {
  settings: z.ZodObject;
  /** values derived from the settings (paths under the data folder); throws ConfigError on a combination that cannot work */
  resolve?: (env: Env, dataDir: string) => object;
}

export const defineConfigSlice = <S extends z.ZodObject>(slice: { settings: S; resolve?: (env: Env, dataDir: string) => object }): ConfigSlice => slice;

/** Validates `source` against the core settings and every slice at once, so one message lists every mistake. */
export function parseConfig(slices: readonly ConfigSlice[], source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}): Config {
  let schema: z.ZodObject = coreSettings;
  for (const slice of slices) {
    const taken = Object.keys(slice.settings.shape).filter((key) => key in schema.shape);
    if (taken.length > 0) throw new ConfigError(`configuration slices define ${taken.join(', ')} twice`);
    schema = schema.extend(slice.settings.shape);
  }
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = { ...(parsed.data as unknown as Env), ...overrides };
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const derived = slices.map((slice) => slice.resolve?.(env, dataDir) ?? {});
  return Object.assign(
    {
      ...env,
      dataDir,
      jwtSigningKeyFile: path.resolve(env.JWT_SIGNING_KEY_FILE ?? path.join(dataDir, 'jwt-signing-key.json')),
      secretsKeyFile: path.resolve(env.SECRETS_KEY_FILE ?? path.join(dataDir, 'secrets-key')),
      graphiql: env.GRAPHIQL ?? env.NODE_ENV === 'development',
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? (env.NODE_ENV === 'production' ? 5_000 : 0),
    },
    ...derived,
  ) as Config;
}
