// The OpenAPI description is generated from the same route table that serves /v1, so the two
// cannot drift. Served at /openapi.json.
import type { RestRoute } from './route.ts';

export function openApiDocument(routes: readonly RestRoute[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const operation: Record<string, unknown> = {
      summary: route.summary,
      operationId: /(?:query|mutation)\s+(\w+)/.exec(route.operation)?.[1],
      'x-graphql-operation': route.operation,
      parameters: [
        ...params,
        { name: 'X-Team-Id', in: 'header', required: false, schema: { type: 'string' }, description: 'team simplyId (user credentials)' },
      ],
      responses: {
        [String(route.status ?? 200)]: { description: 'Success: `{ data, meta }`' },
        default: { description: 'Error envelope: `{ error: { code, message, requestId, details? }, meta }`' },
      },
      security: [{ bearer: [] }],
    };
    if (route.body) {
      operation.requestBody = { required: !route.body.safeParse(undefined).success, content: { 'application/json': { schema: { type: 'object' } } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc platform API', version: 'v1' },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
