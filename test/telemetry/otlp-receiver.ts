// A local OTLP/HTTP trace receiver for tests: a plain HTTP server taking POST /v1/traces in the
// JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), keeping every span with its resource.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean | null | AttributeValue[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** OTLP status code: 0 unset, 1 ok, 2 error */
  statusCode: number;
  links: { traceId: string; spanId: string }[];
  resource: Record<string, AttributeValue>;
}

export interface ExportRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  spanCount: number;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port>, an OTEL_EXPORTER_OTLP_ENDPOINT */
  origin: string;
  spans: ReceivedSpan[];
  requests: ExportRequest[];
  close(): Promise<void>;
}

export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}

function valueOf(v: OtlpAnyValue | undefined): AttributeValue {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return null;
}

function attributesOf(list: { key: string; value?: OtlpAnyValue }[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: ExportRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let count = 0;
      if (req.method === 'POST' && req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const resource = attributesOf(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              count++;
              spans.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
                statusCode: s.status?.code ?? 0,
                links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: l.traceId, spanId: l.spanId })),
                resource,
              });
            }
          }
        }
      }
      requests.push({ path: req.url ?? '', headers: req.headers, spanCount: count });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
