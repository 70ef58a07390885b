// When tracing is on and where its spans go, from the OTEL_* settings (no server needed).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/main/config.ts';
import { tracingSettings } from '../../src/app/telemetry/tracing-settings.ts';

const settingsOf = (env: Record<string, string>) => tracingSettings(loadConfig({ NODE_ENV: 'test', ...env }));

describe('tracing settings', () => {
  it('are off by default, and off whenever OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true', () => {
    expect(settingsOf({})).toBeNull();
    expect(settingsOf({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' })).toBeNull();
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('are on with an OTLP endpoint, or with OTEL_TRACES_EXPORTER=otlp (then the default endpoint)', () => {
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'svc-platform',
      sampler: 'parentbased_always_on',
      timeoutMs: 10_000,
      scheduledDelayMs: 5000,
    });
    // the traces endpoint is used as it is, and wins over the shared one
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' })?.url).toBe('https://b/otlp/traces');
    expect(settingsOf({ OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://localhost:4318/v1/traces');
  });

  it('take the signal-specific protocol, headers and timeout over the shared ones', () => {
    const settings = settingsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20shared,x-tenant=acme',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20traces',
      OTEL_EXPORTER_OTLP_TIMEOUT: '3000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2000',
      OTEL_SERVICE_NAME: 'api-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.name=ignored',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(settings).toMatchObject({
      protocol: 'http/json',
      headers: { authorization: 'Bearer traces', 'x-tenant': 'acme' },
      timeoutMs: 2000,
      serviceName: 'api-eu',
      resourceAttributes: { 'deployment.environment.name': 'prod' },
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
    expect(settingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource' })?.serviceName).toBe('from-resource');
  });

  it('refuse what they cannot honour, without quoting a header value', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(ConfigError);
    let error: unknown;
    try {
      settingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=secret-token%zz' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain('OTEL_EXPORTER_OTLP_HEADERS');
    expect(String(error)).not.toContain('secret-token');
    expect(() => settingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS: each entry must be key=value/);
  });
});
