// Whether this process traces, and where its spans go, from the standard OTEL_* settings
// (validated in config.ts). Unlike the OpenTelemetry SDK's own default, tracing is off unless asked
// for: an OTLP endpoint, or OTEL_TRACES_EXPORTER=otlp (then the spec's default endpoint).
import { ConfigError, type Config } from '../config.ts';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type SamplerName = Config['OTEL_TRACES_SAMPLER'];

export interface TracingSettings {
  /** where spans are POSTed: the traces endpoint, or `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` */
  url: string;
  protocol: OtlpProtocol;
  /** sent with every export (a collector's credentials): never logged */
  headers: Record<string, string>;
  timeoutMs: number;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  /** the ratio of the traceidratio samplers */
  ratio: number;
  scheduledDelayMs: number;
}

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const DEFAULT_SERVICE_NAME = 'svc-platform';
const DEFAULT_TIMEOUT_MS = 10_000;

export function tracingEnabled(config: Config): boolean {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === 'none') return false;
  return config.OTEL_TRACES_EXPORTER === 'otlp' || Boolean(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** The settings of a process that traces; null when tracing is off. */
export function tracingSettings(config: Config): TracingSettings | null {
  if (!tracingEnabled(config)) return null;
  const resourceAttributes = parseKeyValues(config.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES');
  return {
    url: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${(config.OTEL_EXPORTER_OTLP_ENDPOINT ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`,
    protocol: config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    // the signal's own headers win over the shared ones, key by key
    headers: {
      ...parseKeyValues(config.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...parseKeyValues(config.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    timeoutMs: config.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? config.OTEL_EXPORTER_OTLP_TIMEOUT ?? DEFAULT_TIMEOUT_MS,
    serviceName: config.OTEL_SERVICE_NAME ?? resourceAttributes['service.name'] ?? DEFAULT_SERVICE_NAME,
    resourceAttributes,
    sampler: config.OTEL_TRACES_SAMPLER,
    ratio: config.OTEL_TRACES_SAMPLER_ARG ?? 1,
    scheduledDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
  };
}

/**
 * `key1=value1,key2=value2` with percent-encoded values (the OTEL_*_HEADERS and
 * OTEL_RESOURCE_ATTRIBUTES format). A malformed entry is a start-up error that names the setting,
 * never its value (it may hold a credential).
 */
export function parseKeyValues(raw: string | undefined, setting: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw?.trim()) return out;
  for (const entry of raw.split(',')) {
    if (!entry.trim()) continue;
    const at = entry.indexOf('=');
    const key = at > 0 ? entry.slice(0, at).trim() : '';
    if (!key) throw new ConfigError(`${setting}: each entry must be key=value`);
    try {
      out[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${setting}: the value of "${key}" is not valid percent-encoding`);
    }
  }
  return out;
}
