// The request body limit of /graphql (BODY_LIMIT_BYTES, as on /v1), with the same 413
// PAYLOAD_TOO_LARGE. Node's HTTP parser never hands on more than a declared Content-Length, so a
// declared length is checked once, up front; only a body without one (chunked) is counted as it
// streams. Yoga's own limiter wraps every body in a TransformStream and a new Request, which cost
// more than the rest of a small query's request handling together.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const DECIMAL_LENGTH = /^\d+$/;

/** `unread`: the rest of a streamed body is still on the connection, which then closes after the answer */
function tooLarge(limit: number, unread = false): GraphQLError {
  const http = unread ? { status: 413, headers: { Connection: 'close' } } : { status: 413 };
  return new GraphQLError(`The request body exceeds ${limit} bytes`, { extensions: { code: 'PAYLOAD_TOO_LARGE', status: 413, http } });
}

export function useBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (!DECIMAL_LENGTH.test(declared)) {
          throw new GraphQLError('Content-Length must be one decimal number', { extensions: { code: 'VALIDATION_ERROR', status: 400, http: { status: 400 } } });
        }
        if (Number(declared) > limit) throw tooLarge(limit);
        return;
      }
      if (!requestParser || !request.body) return;
      setRequestParser((streamed) => {
        let seen = 0;
        const counted = streamed.body!.pipeThrough(
          new fetchAPI.TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              seen += chunk.byteLength;
              if (seen > limit) controller.error(tooLarge(limit, true));
              else controller.enqueue(chunk);
            },
          }),
        );
        return requestParser(new fetchAPI.Request(streamed.url, { method: streamed.method, headers: streamed.headers, signal: streamed.signal, body: counted, duplex: 'half' } as RequestInit));
      });
    },
  };
}
