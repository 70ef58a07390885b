// The OpenAPI document: valid for a maintained validator (Redocly, recommended rules), usable by a
// client generator (openapi-typescript), and faithful to the route table: request schemas from
// the zod schemas, response schemas from the GraphQL selections through each route's responder.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildSchema, parse } from 'graphql';
import openapiTS from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachedOpenApiDocument, openApiDocument, type OpenApiDocument } from '../../rest-adapter/openapi.ts';
import { operationFieldSchema } from '../../rest-adapter/openapi-response.ts';
import { type JsonSchema, type RegisteredModule, respond, route } from '../../rest-adapter/route.ts';
import { pageQuery } from '../../rest-adapter/schemas.ts';
import { defineModule } from '../../src/app/module.ts';
import { modules, routes } from '../../src/main/modules.ts';
import { schema } from '../../src/main/schema.ts';

const SERVER = 'https://api.example.test/';
const document = openApiDocument({ schema, modules, serverUrl: SERVER });
type Operation = Record<string, any>;
const operations = (doc: OpenApiDocument) => Object.values(doc.paths).flatMap((methods) => Object.values(methods) as Operation[]);
const successSchema = (op: Operation) => {
  const [status] = Object.keys(op.responses).filter((s) => /^2/.test(s));
  return op.responses[status!].content['application/json'].schema as JsonSchema & { properties: Record<string, any> };
};

describe('OpenAPI document', () => {
  it('passes the Redocly recommended ruleset without errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('generates TypeScript types with openapi-typescript', async () => {
    const types = await openapiTS(JSON.parse(JSON.stringify(document)));
    expect(types).toContain('"/v1/team-roles": {');
    expect(types).toContain('"/v1/data-records/{dataRecordSimplyId}": {');
    expect(types).toContain('"/v1/webhooks": {');
    expect(types).toContain('export interface operations {');
    expect(types).toContain('TeamRoles: {');
  });

  it('is OpenAPI 3.1 with one server, the security schemes and one tag per module with routes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://api.example.test' }]);
    const components = document.components as Record<string, Record<string, any>>;
    expect(Object.keys(components.securitySchemes!)).toEqual(['apiKey', 'sessionToken', 'jwt']);
    expect(components.securitySchemes!.apiKey.bearerFormat).toBe('svc_live_…');
    expect(components.securitySchemes!.sessionToken.bearerFormat).toBe('svc_sess_…');
    expect(components.securitySchemes!.jwt.bearerFormat).toBe('JWT');
    const tags = (document.tags as { name: string }[]).map((t) => t.name);
    expect(tags).toEqual(modules.filter((m) => m.routes.length > 0).map((m) => m.name));
    expect(tags).not.toContain('teams');
  });

  it('describes every route once, tagged with its module, with its GraphQL operation and name', () => {
    for (const module of modules) {
      for (const r of module.routes) {
        const op = document.paths[r.path]?.[r.method.toLowerCase()] as Operation;
        expect(op, `${r.method} ${r.path}`).toBeDefined();
        expect(op.tags).toEqual([module.name]);
        expect(op['x-graphql-operation']).toBe(r.operation);
        expect(op.operationId).toBe(/(?:query|mutation)\s+(\w+)/.exec(r.operation)?.[1]);
        expect(op.summary).toBe(r.summary);
      }
    }
    expect(operations(document)).toHaveLength(routes.length);
  });

  it('puts the error envelope on 400/401/403/404/409/429 and default, and X-Team-Id on every operation', () => {
    const envelope = (document.components as any).schemas.ErrorEnvelope;
    expect(envelope.required).toEqual(['error', 'meta']);
    expect(envelope.properties.error.required).toEqual(['code', 'message', 'requestId']);
    for (const op of operations(document)) {
      for (const status of ['400', '401', '403', '404', '409', '429', 'default']) expect(op.responses[status].$ref).toMatch(/^#\/components\/responses\//);
      expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/TeamId' });
    }
  });

  it('wraps every success response in { data, meta } with meta.requestId', () => {
    for (const op of operations(document)) {
      const success = successSchema(op);
      expect(success.required).toEqual(['data', 'meta']);
      expect(success.properties.meta.required).toContain('requestId');
    }
  });

  it('describes a paged list as data: array of the selected fields, meta.pagination', () => {
    const op = document.paths['/v1/team-roles']!.get as Operation;
    const success = successSchema(op);
    expect(success.properties.data.type).toBe('array');
    expect(success.properties.data.items.properties).toHaveProperty('teamRoleSimplyId', { type: 'string' });
    expect(success.properties.data.items.required).toContain('name');
    expect(success.properties.meta.properties.pagination.required).toEqual(['total', 'limit', 'offset', 'hasMore']);
    expect(success.properties.meta.required).toEqual(['requestId', 'pagination']);
    expect(op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name)).toEqual(['limit', 'offset']);
    expect(op.parameters[0].schema).toEqual({ type: 'string', pattern: '^-?\\d+$' });
  });

  it('describes path parameters from the template and bodies from the zod schema', () => {
    const replace = document.paths['/v1/team-roles/{teamRoleSimplyId}']!.put as Operation;
    expect(replace.parameters[0]).toEqual({ name: 'teamRoleSimplyId', in: 'path', required: true, schema: { type: 'string' } });
    expect(replace.requestBody.required).toBe(true);
    expect(replace.requestBody.content['application/json'].schema.properties.name).toMatchObject({ type: 'string' });
    const remove = document.paths['/v1/team-roles/{teamRoleSimplyId}']!.delete as Operation;
    expect(successSchema(remove).properties.data.required).toEqual(['id', 'deleted']);
    expect(remove.requestBody).toBeUndefined();
  });

  it('marks extensions with their reason and public routes without security', () => {
    const login = document.paths['/v1/auth/login']!.post as Operation;
    expect(login.security).toEqual([]);
    expect(login['x-extension']).toMatch(/first-party/);
    const roles = document.paths['/v1/team-roles']!.get as Operation;
    expect(roles.security).toBeUndefined();
    expect(document.security).toEqual([{ apiKey: [] }, { sessionToken: [] }, { jwt: [] }]);
  });

  it('is built once per server address', () => {
    const first = cachedOpenApiDocument({ schema, modules, serverUrl: SERVER });
    expect(cachedOpenApiDocument({ schema, modules, serverUrl: SERVER })).toBe(first);
    expect(cachedOpenApiDocument({ schema, modules, serverUrl: 'https://other.example.test' })).not.toBe(first);
  });
});

describe('OpenAPI generation', () => {
  const tiny = buildSchema(`
    scalar DateTime
    scalar JSON
    scalar LocalizedText
    enum Level { READ EDIT }
    interface Node { id: ID! }
    type Thing implements Node { id: ID! name: String count: Int! ratio: Float ok: Boolean! at: DateTime! raw: JSON label: LocalizedText level: Level tags: [String!]! owner: Owner }
    type Owner implements Node { id: ID! email: String! }
    union Item = Thing | Owner
    type Query { thing(id: ID!): Thing items: [Item!]! node(id: ID!): Node }
    type Mutation { removeThing(id: ID!): Boolean! }
  `);
  const fieldSchema = (source: string) => operationFieldSchema(tiny, parse(source)) as any;
  const moduleOf = (name: string, rs: RegisteredModule['routes']): RegisteredModule => ({ ...defineModule({ name, description: `The ${name} test area` }), routes: rs });

  it('maps scalars, enums, lists, non-null, aliases and __typename', () => {
    const s = fieldSchema(`query T($inc: Boolean!) { thing(id: "1") { __typename key: id name count ratio ok at raw label level tags owner { email } extra: name @include(if: $inc) } }`);
    expect(s.type).toBe('object');
    expect(s.properties.__typename).toEqual({ type: 'string', const: 'Thing' });
    expect(s.properties.key).toEqual({ type: 'string' });
    expect(s.properties.name).toEqual({ type: ['string', 'null'] });
    expect(s.properties.count).toEqual({ type: 'integer' });
    expect(s.properties.ratio).toEqual({ type: ['number', 'null'] });
    expect(s.properties.ok).toEqual({ type: 'boolean' });
    expect(s.properties.at).toEqual({ type: 'string', format: 'date-time' });
    expect(s.properties.raw).toEqual({});
    expect(s.properties.label.anyOf[0]).toEqual({ type: 'string' });
    expect(s.properties.label.anyOf[1]).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(s.properties.label.anyOf[2]).toEqual({ type: 'null' });
    expect(s.properties.level).toEqual({ type: ['string', 'null'], enum: ['READ', 'EDIT', null] });
    expect(s.properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(s.properties.owner).toEqual({ type: ['object', 'null'], properties: { email: { type: 'string' } }, required: ['email'] });
    expect(s.properties.extra).toEqual({ type: ['string', 'null'] });
    expect(s.required).toEqual(['__typename', 'key', 'count', 'ok', 'at', 'tags']);
    expect(s.required).not.toContain('extra');
  });

  it('merges named and inline fragments; fields of a narrower type condition are optional', () => {
    const s = fieldSchema(`query I { items { __typename ...ThingBits ... on Owner { id email } } } fragment ThingBits on Thing { id count }`);
    expect(s.type).toBe('array');
    const item = s.items;
    expect(item.properties.__typename).toEqual({ type: 'string', enum: ['Thing', 'Owner'] });
    expect(Object.keys(item.properties)).toEqual(['__typename', 'id', 'count', 'email']);
    expect(item.required).toEqual(['__typename']);
    const same = fieldSchema(`query T { thing(id: "1") { ...A ...B } } fragment A on Thing { owner { id } } fragment B on Node { id ... on Thing { owner { email } } }`);
    expect(same.properties.owner.properties).toEqual({ id: { type: 'string' }, email: { type: 'string' } });
    expect(same.required).toEqual(['id']);
  });

  it('passes the field schema through the route responder and wraps it in the envelope', () => {
    const tinyRoutes = [
      route({
        method: 'GET',
        path: '/v1/things/{id}',
        summary: 'A thing as data, its count as meta',
        operation: 'query Thing($id: ID!) { thing(id: $id) { id count } }',
        query: pageQuery.extend({ q: z.string().describe('search text') }),
        respond: respond.custom(
          (t: { id: string; count: number }) => ({ data: { id: t.id }, meta: { count: t.count } }),
          (f) => ({ data: { type: 'object', properties: { id: respond.property(f, 'id') } }, meta: { type: 'object', properties: { count: respond.property(f, 'count') }, required: ['count'] } }),
        ),
      }),
      route({ method: 'DELETE', path: '/v1/things/{id}', summary: 'Remove', operation: 'mutation RemoveThing($id: ID!) { removeThing(id: $id) }', respond: respond.deleted('id') }),
    ];
    const doc = openApiDocument({ schema: tiny, modules: [moduleOf('things', tinyRoutes)], serverUrl: SERVER });
    const get = doc.paths['/v1/things/{id}']!.get as Operation;
    const success = successSchema(get);
    expect(success.properties.data).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    expect(success.properties.meta.properties).toEqual({ requestId: { type: 'string', format: 'uuid' }, count: { type: 'integer' } });
    expect(success.properties.meta.required).toEqual(['requestId', 'count']);
    expect(get.parameters.find((p: any) => p.name === 'q')).toEqual({ name: 'q', in: 'query', required: true, schema: { type: 'string' }, description: 'search text' });
    expect(get.tags).toEqual(['things']);
    expect(successSchema(doc.paths['/v1/things/{id}']!.delete as Operation).properties.data.properties.deleted).toEqual({ type: 'boolean', const: true });
  });

  it('fails fast on a duplicate operation name', () => {
    const twice = [
      route({ method: 'GET', path: '/v1/a', summary: 'A', operation: 'query Same { thing(id: "1") { id } }' }),
      route({ method: 'GET', path: '/v1/b', summary: 'B', operation: 'query Same { thing(id: "2") { id } }' }),
    ];
    expect(() => openApiDocument({ schema: tiny, modules: [moduleOf('dup', twice)], serverUrl: SERVER })).toThrow(/operationId Same of GET \/v1\/b is already used by GET \/v1\/a/);
  });
});
