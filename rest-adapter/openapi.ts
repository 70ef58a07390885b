// The OpenAPI 3.1 description of /v1, generated from the same module list and route tables that
// serve it, so the two cannot drift: requests from the routes' zod schemas, responses from each
// operation's GraphQL selection shaped by the route's responder. Served at /openapi.json and
// rendered at /docs; built once per process (the route table does not change while it runs).
import { parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { type JsonSchema, type RegisteredModule, respond, type RestRoute } from './route.ts';
import { publicRoutes, routeKey } from './openapi-checklist.ts';
import { requestBody, requestParameters, type SharedSchemas } from './openapi-request.ts';
import { operationFieldSchema } from './openapi-response.ts';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': { name: 'BadRequest', description: 'Invalid input (`VALIDATION_ERROR`, details `[{ field, message }]`) or a refused request' },
  '401': { name: 'Unauthorized', description: 'Missing, unknown, expired or revoked credential' },
  '403': { name: 'Forbidden', description: 'The credential lacks the tier, scope or feature permission the route needs' },
  '404': { name: 'NotFound', description: 'No such resource in the team (or not visible to the caller)' },
  '409': { name: 'Conflict', description: 'The change conflicts with the current state' },
  '429': { name: 'TooManyRequests', description: 'Rate limit reached; retry after the `Retry-After` seconds' },
  default: { name: 'Error', description: 'Any other error, in the same envelope' },
};

const SECURITY_SCHEMES = {
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_live_…', description: 'A team API key: `Authorization: Bearer svc_live_…`' },
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_sess_…',
    description: 'A session token minted with an API key (`POST /v1/session-tokens`): `Authorization: Bearer svc_sess_…`',
  },
  jwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A user access token from `POST /v1/auth/login` (signed JWT, keys at `/.well-known/jwks.json`); pick the team with `X-Team-Id`',
  },
};

const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  Meta: { type: 'object', properties: { requestId: { type: 'string', format: 'uuid' } }, required: ['requestId'] },
  ErrorEnvelope: {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'stable machine-readable code, e.g. `VALIDATION_ERROR`, `NOT_FOUND`' },
          message: { type: 'string' },
          requestId: { type: 'string', format: 'uuid' },
          details: {
            type: 'array',
            items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['message'] },
          },
        },
        required: ['code', 'message', 'requestId'],
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
    required: ['error', 'meta'],
  },
};

export interface OpenApiSources {
  schema: GraphQLSchema;
  modules: readonly RegisteredModule[];
  serverUrl: string;
}

export function openApiDocument({ schema, modules, serverUrl }: OpenApiSources): OpenApiDocument {
  const callableWithoutCredential = publicRoutes(modules.flatMap((m) => m.routes));
  const shared: SharedSchemas = {};
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Map<string, string>();
  for (const module of modules) {
    for (const route of module.routes) {
      const operation = routeOperation(schema, module.name, route, shared);
      const id = operation.operationId as string;
      const taken = operationIds.get(id);
      if (taken) throw new Error(`OpenAPI: operationId ${id} of ${routeKey(route)} is already used by ${taken}`);
      operationIds.set(id, routeKey(route));
      const extension = route.extension;
      if (extension) operation['x-extension'] = extension.reason;
      if (callableWithoutCredential.has(route)) operation.security = [];
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc platform API',
      version: 'v1',
      description: [
        'The /v1 REST face of the platform. Every route runs one GraphQL operation (`x-graphql-operation`) of the schema served at `/graphql`.',
        'Success: `{ data, meta: { requestId, … } }`. Failure: `{ error: { code, message, requestId, details? }, meta: { requestId } }`.',
        'Credentials: `Authorization: Bearer` with an API key, a session token or a user access token (JWT); user tokens choose the team with `X-Team-Id`.',
        'Operations marked `x-extension` are not in the platform documents; the extension says why they exist.',
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl.replace(/\/+$/, '') }],
    tags: modules
      .filter((m) => m.routes.length > 0)
      .map((m) => ({ name: m.name, description: m.description })),
    security: Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      parameters: {
        TeamId: {
          name: 'X-Team-Id',
          in: 'header',
          required: false,
          description: 'The team to act in (a team simplyId), for user credentials that belong to several teams',
          schema: { type: 'string' },
        },
      },
      schemas: { ...COMPONENT_SCHEMAS, ...shared },
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description }) => [
          name,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
        ]),
      ),
    },
  };
}

function routeOperation(schema: GraphQLSchema, tag: string, route: RestRoute, shared: SharedSchemas): Record<string, unknown> {
  const document = parse(route.operation);
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const operationId = definition?.name?.value;
  if (!operationId) throw new Error(`OpenAPI: ${routeKey(route)} has an unnamed operation`);
  const shaped = (route.respond ?? respond.field).schema(operationFieldSchema(schema, document));
  const status = String(route.status ?? 200);
  const operation: Record<string, unknown> = {
    tags: [tag],
    summary: route.summary,
    operationId,
    'x-graphql-operation': route.operation,
    parameters: [...requestParameters(route, operationId, shared), { $ref: '#/components/parameters/TeamId' }],
  };
  if (route.description) operation.description = route.description;
  if (route.deprecation) operation.deprecated = true;
  const body = requestBody(route, operationId, shared);
  if (body) operation.requestBody = body;
  operation.responses = {
    [status]: { description: status === '201' ? 'Created' : 'Success', content: { 'application/json': { schema: envelope(shaped) } } },
    ...Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([code, { name }]) => [code, { $ref: `#/components/responses/${name}` }])),
  };
  return operation;
}

/** `{ data, meta }` with meta's own properties next to `requestId`. */
function envelope(shaped: { data: JsonSchema; meta?: JsonSchema }): JsonSchema {
  const meta = shaped.meta ?? {};
  return {
    type: 'object',
    properties: {
      data: shaped.data,
      meta: {
        type: 'object',
        properties: { requestId: { type: 'string', format: 'uuid' }, ...(meta.properties as Record<string, JsonSchema> | undefined) },
        required: ['requestId', ...((meta.required as string[] | undefined) ?? [])],
      },
    },
    required: ['data', 'meta'],
  };
}

const built = new Map<string, { modules: readonly RegisteredModule[]; document: OpenApiDocument }>();

/** The document for this process's route table and public address, built on first use. */
export function cachedOpenApiDocument(sources: OpenApiSources): OpenApiDocument {
  const hit = built.get(sources.serverUrl);
  if (hit && hit.modules === sources.modules) return hit.document;
  const document = openApiDocument(sources);
  built.set(sources.serverUrl, { modules: sources.modules, document });
  return document;
}
