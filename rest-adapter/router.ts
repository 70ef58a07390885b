// Matches a path against the route table. Static segments win over parameters
// (/v1/users/me before /v1/users/{userSimplyId}), and a path belongs to the most specific pattern
// it matches: a method that pattern is not served with is a 405, never a parameter route's match.
import type { HttpMethod, RestRoute } from './route.ts';

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  paramNames: string[];
  specificity: number[];
  /** the segment count and the first two segments when both are static (`2 v1/data-records`), else null */
  shape: string | null;
}

export type RouteMatch =
  | { kind: 'found'; route: RestRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

/**
 * The routes a path can match are those with as many segments and the same first two: a request
 * tries a handful of patterns, not the whole table (which runs to hundreds).
 */
function shapeOf(segments: readonly string[]): string {
  return `${segments.length} ${segments[0]}/${segments[1]}`;
}

export class Router {
  /** candidates by shapeOf, in specificity order (routes with a parameter in their first two segments are in each of their count's lists) */
  private readonly byShape = new Map<string, CompiledRoute[]>();
  /** the candidates of a path whose shape no list names: routes with a parameter in their first two segments */
  private readonly byCount = new Map<number, CompiledRoute[]>();

  constructor(routes: readonly RestRoute[]) {
    const compiled = routes
      .map((route) => {
        const segments = route.path.split('/').filter(Boolean);
        const paramNames: string[] = [];
        const source = segments
          .map((segment) => {
            const param = /^\{(\w+)\}$/.exec(segment);
            if (param) {
              paramNames.push(param[1]!);
              return '/([^/]+)';
            }
            return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
          })
          .join('');
        return {
          route,
          pattern: new RegExp(`^${source}/?$`),
          paramNames,
          specificity: segments.map((s) => (s.startsWith('{') ? 0 : 1)),
          shape: segments.length >= 2 && !segments[0]!.startsWith('{') && !segments[1]!.startsWith('{') ? shapeOf(segments) : null,
        };
      })
      .sort((a, b) => compareSpecificity(b.specificity, a.specificity));
    for (const c of compiled) {
      if (c.shape) this.byShape.set(c.shape, []);
      else this.byCount.set(c.specificity.length, []);
    }
    for (const c of compiled) {
      if (!c.shape) this.byCount.get(c.specificity.length)!.push(c);
      for (const [shape, list] of this.byShape) {
        if (c.shape === shape || (!c.shape && shape.startsWith(`${c.specificity.length} `))) list.push(c);
      }
    }
  }

  match(method: string, path: string): RouteMatch {
    const segments = path.split('/').filter(Boolean);
    const candidates = this.byShape.get(shapeOf(segments)) ?? this.byCount.get(segments.length) ?? [];
    let allowed: Set<HttpMethod> | null = null;
    // the path is the most specific pattern it matches: /v1/data-records/batch is the batch path,
    // whose other methods are a 405, not /v1/data-records/{id} with id "batch"
    let shape: number[] | null = null;
    for (const c of candidates) {
      if (shape && compareSpecificity(c.specificity, shape) !== 0) break;
      const m = c.pattern.exec(path);
      if (!m) continue;
      shape = c.specificity;
      if (c.route.method === method) {
        const params: Record<string, string> = {};
        for (let i = 0; i < c.paramNames.length; i++) params[c.paramNames[i]!] = safeDecode(m[i + 1]!);
        return { kind: 'found', route: c.route, params };
      }
      (allowed ??= new Set()).add(c.route.method);
    }
    return allowed ? { kind: 'method-not-allowed', allowed: [...allowed] } : { kind: 'not-found' };
  }
}

function compareSpecificity(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

function safeDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
