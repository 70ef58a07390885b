// Every setting the platform reads from the environment, validated once at start.
// README.md "Configuration" lists them; keep the two in step.
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  PUBLIC_BASE_URL: z.string().url().optional(),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // json: one JSON object per line on stdout; pretty: readable, coloured lines for development
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  // /metrics: a bearer token that the main port (and the metrics listener) require; unset: the main port does not serve it
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  // a separate plain-HTTP listener serving only /metrics (0: any free port)
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  GRAPHIQL: bool.optional(),
  JOBS_IN_SERVER: bool.default(true),
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
  // outgoing mail: smtp:// or smtps:// URL (credentials in it); unset keeps mail in the outbox table
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('svc platform <no-reply@svc.invalid>'),
  // composed messages (docs/api/outgoing-messages.md "Sending"): recipients handed to the mail
  // transport per second, over every instance together
  MESSAGE_SEND_RATE: z.coerce.number().int().min(1).max(10_000).default(200),
  // the domain of per-recipient return paths (VERP, `bounces+<token>@<domain>`); default: MAIL_FROM's domain.
  // Its MX must reach the inbound listener for bounces and complaints to be counted
  MAIL_BOUNCE_DOMAIN: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain name such as bounces.example.org').optional(),
  // the inbound SMTP listener for delivery status notifications and complaint reports (docs/api/mail-feedback.md):
  // off unless a port is given (0 picks a free port: tests)
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  // AES-256-GCM key for secrets that must be read back (webhook signing secrets); created on first start
  SECRETS_KEY_FILE: z.string().optional(),
  // tests only: let webhooks target loopback addresses (everything else stays refused)
  WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
  // PEM certificate(s) webhook deliveries trust besides the system roots (tests' self-signed receivers)
  WEBHOOK_CA_FILE: z.string().optional(),
  // attempts to one webhook target (one team's target origin) in flight at once over every instance
  WEBHOOK_TARGET_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(100),
  // push (docs/api/notifications.md "Push delivery"). Web Push: the VAPID key pair (base64url, as
  // web-push generates it); unset: one is created on first use in VAPID_KEY_FILE. Every instance
  // must use the same pair: browsers' subscriptions are bound to its public key
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'a base64url P-256 public key (87 characters)').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url P-256 private key (43 characters)').optional(),
  VAPID_KEY_FILE: z.string().optional(),
  // who runs the application server (push services contact it about problems): mailto: or https:
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'a mailto: or https: URL').default('mailto:push@svc.invalid'),
  // tests only: Web Push endpoints may be loopback addresses (private, link-local and reserved stay refused)
  PUSH_ALLOW_LOOPBACK: bool.default(false),
  // PEM certificate(s) push requests (Web Push, APNs, FCM and its token endpoint) trust besides the system roots
  PUSH_CA_FILE: z.string().optional(),
  // APNs (ios): token-based provider authentication; all four of key file, key id, team id and topic, or ios pushes are SKIPPED
  APNS_BASE_URL: z.string().url().default('https://api.push.apple.com'),
  APNS_KEY_FILE: z.string().optional(),
  APNS_KEY_ID: z.string().min(1).optional(),
  APNS_TEAM_ID: z.string().min(1).optional(),
  // the app's bundle id
  APNS_TOPIC: z.string().min(1).optional(),
  // FCM HTTP v1 (android): a service account's JSON key file; unset: android pushes are SKIPPED
  FCM_BASE_URL: z.string().url().default('https://fcm.googleapis.com'),
  FCM_SERVICE_ACCOUNT_FILE: z.string().optional(),
  // default: the service account's project_id
  FCM_PROJECT_ID: z.string().min(1).optional(),
  // sends to one push token: attempts in all, and the first retry's delay (doubling, at most 5 minutes; 0: retry at once)
  PUSH_SEND_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  PUSH_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(2),
  // files: where objects live. local (default): on disk under FILE_STORAGE_DIR, served by the platform's
  // signed endpoints; s3: an S3-compatible bucket (every instance must see the same objects)
  FILE_STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  FILE_STORAGE_DIR: z.string().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  // a non-AWS endpoint (MinIO, Ceph, s3rver…); unset: AWS
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // path-style URLs (bucket in the path): what most non-AWS servers need
  S3_FORCE_PATH_STYLE: bool.default(false),
  // the storage limit of a team without its own (bytes; default 10 GiB)
  FILE_STORAGE_QUOTA_BYTES: z.coerce.number().int().min(0).default(10 * 1024 ** 3),
  // mail-domain verification: the DNS servers asked for the TXT records (ip or ip:port, comma-separated; IPv6 as [addr]:port); unset: the system's resolvers
  MAIL_DOMAIN_DNS_SERVERS: z
    .string()
    .regex(/^\s*((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+)(:\d{1,5})?\s*(,\s*|$))+$/, 'a comma-separated list of ip or ip:port')
    .optional(),
  // malware scanning: clamd's address (tcp://host:3310 or unix:///run/clamav/clamd.ctl); unset: the built-in scanner
  CLAMD_URL: z.string().regex(/^(tcp:\/\/[^/]+:\d+|unix:\/\/\/.+)$/, 'tcp://host:port or unix:///path').optional(),
  // how long one scan may take before the upload is rejected (TIMED_OUT)
  FILE_SCAN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  // background-task CSV import (BULK_DATA_IMPORT): the largest file and the most data rows one task takes
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(5 * 1024 * 1024),
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).default(5000),
  // automation-caused record writes may trigger automations this many levels deep (loop guard)
  AUTOMATION_MAX_DEPTH: z.coerce.number().int().min(0).max(10).default(3),
  // traces (OpenTelemetry, OTLP over HTTP): on when an OTLP endpoint is set or OTEL_TRACES_EXPORTER=otlp,
  // off by default (src/app/telemetry/tracing-settings.ts, docs/observability.md "Traces")
  OTEL_SDK_DISABLED: bool.default(false),
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
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  jwtSigningKeyFile: string;
  secretsKeyFile: string;
  /** VAPID_KEY_FILE, or <data folder>/vapid-keys.json */
  vapidKeyFile: string;
  /** FILE_STORAGE_DIR, or <data folder>/files */
  fileStorageDir: string;
  graphiql: boolean;
  /** SHUTDOWN_GRACE_MS, or its default for NODE_ENV */
  shutdownGraceMs: number;
}

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = { ...parsed.data, ...overrides };
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  if (env.FILE_STORAGE_DRIVER === 's3' && !env.S3_BUCKET) throw new ConfigError('FILE_STORAGE_DRIVER=s3 needs S3_BUCKET');
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    dataDir,
    jwtSigningKeyFile: path.resolve(env.JWT_SIGNING_KEY_FILE ?? path.join(dataDir, 'jwt-signing-key.json')),
    secretsKeyFile: path.resolve(env.SECRETS_KEY_FILE ?? path.join(dataDir, 'secrets-key')),
    vapidKeyFile: path.resolve(env.VAPID_KEY_FILE ?? path.join(dataDir, 'vapid-keys.json')),
    fileStorageDir: path.resolve(env.FILE_STORAGE_DIR ?? path.join(dataDir, 'files')),
    graphiql: env.GRAPHIQL ?? env.NODE_ENV === 'development',
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? (env.NODE_ENV === 'production' ? 5_000 : 0),
  };
}
