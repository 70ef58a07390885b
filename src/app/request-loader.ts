// Per-request DataLoaders: a nested list asks for N things, the loader makes one query.
import DataLoader from 'dataloader';
import type { RequestContext } from './context.ts';

export function requestLoader<K, V>(ctx: RequestContext, name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>, cacheKey?: (key: K) => string): DataLoader<K, V, unknown> {
  ctx.loaders ??= new Map();
  let loader = ctx.loaders.get(name) as DataLoader<K, V, unknown> | undefined;
  if (!loader) {
    loader = new DataLoader<K, V, unknown>(batch, cacheKey ? { cacheKeyFn: cacheKey } : {});
    ctx.loaders.set(name, loader);
  }
  return loader;
}
