// The server span of each HTTP request: `<METHOD> <route template>`, method, route template and
// status, and the request id that the access log carries too. Never the concrete path, the query,
// a header or the body (ids, tokens and record values live there), nor the client's address.
// A `traceparent` sent by the caller is continued. The route is the one the handler routed the
// request as (src/app/http/request-route.ts). Loaded only with tracing on.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_NETWORK_PROTOCOL_VERSION, ATTR_URL_SCHEME } from '@opentelemetry/semantic-conventions';
import { routeOf } from '../http/request-route.ts';
import { markFailed, type SpanKit } from './span-kit.ts';

/** The request id the handler gives every response (x-request-id), as a span attribute. */
export const ATTR_REQUEST_ID = 'svc.request.id';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

export function serverSpans(kit: SpanKit): (handler: RequestListener) => RequestListener {
  return (handler) => (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    const parent = kit.contextFrom(req.headers);
    // named `<METHOD>` until the handler has routed the request (request-route.ts)
    const span = kit.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_SCHEME]: 'https',
          [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion,
        },
      },
      parent,
    );
    res.once('close', () => {
      const status = res.statusCode;
      const route = routeOf(res);
      span.updateName(`${method} ${route}`);
      span.setAttribute(ATTR_HTTP_ROUTE, route);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      const requestId = res.getHeader('x-request-id');
      if (typeof requestId === 'string') span.setAttribute(ATTR_REQUEST_ID, requestId);
      if (!res.writableFinished) markFailed(span, 'incomplete');
      else if (status >= 500) markFailed(span, String(status));
      span.end();
    });
    context.with(trace.setSpan(parent, span), handler, undefined, req, res);
  };
}
