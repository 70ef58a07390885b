// The route checklist: every documented /v1 route (rest-adapter/documented-routes.json, a copy of
// the platform documents' list) is served or named in rest-adapter/routes-not-built.ts, never both;
// every served route outside the documents is an extension with a reason; every operation fits the
// schema; and the module list and the route files under rest-adapter/routes/ match one to one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, prepare } from '../../rest-adapter/executor.ts';
import { DOCUMENTED_ROUTES_FILE, documentedRoutes, routeChecklist, routeKey, servingRoutes } from '../../rest-adapter/openapi-checklist.ts';
import { openApiDocument } from '../../rest-adapter/openapi.ts';
import { routesNotBuilt } from '../../rest-adapter/routes-not-built.ts';
import { modules, routes } from '../../src/main/modules.ts';
import { schema } from '../../src/main/schema.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const documented = documentedRoutes();
const checklist = routeChecklist(routes, documented);
const ROUTE_FILES = path.join(repo, 'rest-adapter', 'routes');

describe('route checklist', () => {
  it('holds the 375 documented routes, equal to the shared list when it sits beside the repository', () => {
    expect(documented).toHaveLength(375);
    for (const d of documented) {
      expect(d.method, routeKey(d)).toMatch(/^(GET|POST|PUT|PATCH|DELETE|\?)$/);
      expect(d.path, routeKey(d)).toMatch(/^\/v1\//);
      expect(['standard', 'privileged', 'public']).toContain(d.tier);
    }
    const shared = path.resolve(repo, '..', 'shared', 'api-routes.json');
    if (fs.existsSync(shared)) expect(JSON.parse(fs.readFileSync(shared, 'utf8'))).toEqual(JSON.parse(fs.readFileSync(DOCUMENTED_ROUTES_FILE, 'utf8')));
  });

  it('finds every documented route served or listed as not built', () => {
    expect(checklist.missing.map(routeKey)).toEqual([]);
  });

  it('lists no route both as served and as not built', () => {
    expect(checklist.both.map(routeKey)).toEqual([]);
  });

  it('lists as not built only documented routes, each once, under its own area and section', () => {
    expect(checklist.unknownNotBuilt).toEqual([]);
    const listed = routesNotBuilt.flatMap((g) => g.routes);
    expect(new Set(listed).size).toBe(listed.length);
    for (const group of routesNotBuilt) {
      for (const key of group.routes) {
        const entries = documented.filter((d) => routeKey(d) === key);
        expect(entries.some((d) => d.area === group.area && d.doc === group.doc && d.section === group.section), key).toBe(true);
      }
    }
  });

  it('maps the documented batch routes to POST, PATCH and DELETE /v1/data-records/batch', () => {
    const batch = documented.filter((d) => d.path === '/v1/data-records/batch');
    expect(batch.map((d) => d.operation).sort()).toEqual(['batch create', 'batch delete', 'batch update']);
    expect(batch.flatMap((d) => servingRoutes(d, routes).map(routeKey)).sort()).toEqual([
      'DELETE /v1/data-records/batch',
      'PATCH /v1/data-records/batch',
      'POST /v1/data-records/batch',
    ]);
  });

  it('gives every served route outside the documents a reason, and lists no other extension', () => {
    const unexplained = checklist.extensions.filter((e) => !e.reason || e.reason.trim().length < 10).map((e) => routeKey(e.route));
    expect(unexplained).toEqual([]);
    expect(checklist.staleExtensions).toEqual([]);
    expect(checklist.extensions.map((e) => routeKey(e.route))).toContain('POST /v1/auth/login');
  });

  it('counts per area add up', () => {
    const total = checklist.byArea.reduce((n, a) => n + a.documented, 0);
    expect(total).toBe(documented.length);
    const served = checklist.byArea.reduce((n, a) => n + a.served, 0);
    const notBuilt = checklist.entries.filter((e) => e.notBuilt).length;
    expect(served + notBuilt).toBe(documented.length);
  });
});

describe('REST route table', () => {
  const table = new Set(routes.map(routeKey));

  it('has no duplicate entries', () => {
    expect(table.size).toBe(routes.length);
  });

  it('validates and compiles every operation against the schema', () => {
    for (const route of routes) expect(() => compile(schema, prepare(schema, route)), routeKey(route)).not.toThrow();
  });

  it('describes every route in the OpenAPI document', () => {
    const doc = openApiDocument({ schema, modules, serverUrl: 'https://example.test/' });
    for (const route of routes) expect(doc.paths[route.path]?.[route.method.toLowerCase()], routeKey(route)).toBeDefined();
  });

  it('has one route file per module with a REST face, named like the module, and no other', async () => {
    const files = fs.readdirSync(ROUTE_FILES).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();
    const withRoutes = modules.filter((m) => m.routes.length > 0);
    expect(files).toEqual(withRoutes.map((m) => m.name).sort());
    for (const module of withRoutes) {
      const exported = Object.values(await import(path.join(ROUTE_FILES, `${module.name}.ts`)));
      expect(exported, `rest-adapter/routes/${module.name}.ts exports the table of module ${module.name}`).toContain(module.routes);
    }
    // modules without a REST face (teams) have no route file
    for (const module of modules.filter((m) => m.routes.length === 0)) expect(files).not.toContain(module.name);
  });
});
