// The route checklist: the documented /v1 routes (documented-routes.json, a copy of the platform
// documents' route list) against the served route table. Every documented route is served or named
// in routes-not-built.ts, never both; every served route is documented or an extension with a
// reason (the `extensions` of its route table, see defineRoutes in route.ts). Read by the route checklist test and `npm run routes`.
import fs from 'node:fs';
import type { RestRoute } from './route.ts';
import { routesNotBuilt } from './routes-not-built.ts';

export interface DocumentedRoute {
  doc: number;
  section: string;
  area: string;
  tier: 'standard' | 'privileged' | 'public';
  /** "?" where the documents do not state it */
  method: string;
  path: string;
  operation?: string;
  note?: string;
}

export const DOCUMENTED_ROUTES_FILE = new URL('./documented-routes.json', import.meta.url);

export function documentedRoutes(): DocumentedRoute[] {
  return JSON.parse(fs.readFileSync(DOCUMENTED_ROUTES_FILE, 'utf8')) as DocumentedRoute[];
}

// Document 1 §4.2 lists "(batch)" create, update and delete on one path without methods.
const BATCH_METHODS: Record<string, string> = { 'batch create': 'POST', 'batch update': 'PATCH', 'batch delete': 'DELETE' };

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/**
 * The routes of `served` callable without a credential: documented as public, or an extension marked
 * public: what OpenAPI marks `security: []`. (Requests are refused by the route's tier itself: a
 * caller without a credential is 401 unless the field's tier is public.)
 */
export function publicRoutes(served: readonly RestRoute[], documented: readonly DocumentedRoute[] = documentedRoutes()): ReadonlySet<RestRoute> {
  const keys = new Set(documented.filter((d) => d.tier === 'public').map(routeKey));
  return new Set(served.filter((r) => r.extension?.public || keys.has(routeKey(r))));
}

/** The served routes a documented entry stands for (empty: not served). */
export function servingRoutes(documented: DocumentedRoute, served: readonly RestRoute[]): RestRoute[] {
  const method = documented.method === '?' ? BATCH_METHODS[documented.operation ?? ''] : documented.method;
  return served.filter((r) => r.path === documented.path && (method === undefined || r.method === method));
}

export interface AreaCount {
  area: string;
  documented: number;
  served: number;
}

export interface Checklist {
  /** documented entries with the served routes that answer them */
  entries: { documented: DocumentedRoute; served: RestRoute[]; notBuilt: boolean }[];
  /** documented, neither served nor listed as not built */
  missing: DocumentedRoute[];
  /** listed as not built but served */
  both: DocumentedRoute[];
  /** listed as not built but not in the documents */
  unknownNotBuilt: string[];
  /** served, not documented: with the extension's reason, or undefined when none is given */
  extensions: { route: RestRoute; reason: string | undefined }[];
  /** routes explained as extensions that the documents list after all */
  staleExtensions: string[];
  byArea: AreaCount[];
}

export function routeChecklist(served: readonly RestRoute[], documented: readonly DocumentedRoute[] = documentedRoutes()): Checklist {
  const notBuilt = new Set(routesNotBuilt.flatMap((g) => g.routes));
  const entries = documented.map((d) => ({ documented: d, served: servingRoutes(d, served), notBuilt: notBuilt.has(routeKey(d)) }));
  const covered = new Set(entries.flatMap((e) => e.served));
  const documentedKeys = new Set(documented.map(routeKey));
  const extensions = served.filter((r) => !covered.has(r)).map((route) => ({ route, reason: route.extension?.reason }));
  const extensionKeys = new Set(extensions.map((e) => routeKey(e.route)));
  const byArea = new Map<string, AreaCount>();
  for (const e of entries) {
    const count = byArea.get(e.documented.area) ?? { area: e.documented.area, documented: 0, served: 0 };
    count.documented++;
    if (e.served.length > 0) count.served++;
    byArea.set(e.documented.area, count);
  }
  return {
    entries,
    missing: entries.filter((e) => e.served.length === 0 && !e.notBuilt).map((e) => e.documented),
    both: entries.filter((e) => e.served.length > 0 && e.notBuilt).map((e) => e.documented),
    unknownNotBuilt: [...notBuilt].filter((k) => !documentedKeys.has(k)),
    extensions,
    staleExtensions: served.filter((r) => r.extension && !extensionKeys.has(routeKey(r))).map(routeKey),
    byArea: [...byArea.values()],
  };
}
