// A serving process does not keep Node's TypeScript stripper. The stripper (its WebAssembly and
// sources, about 17 MiB resident) loads the first time a source has to be stripped, and stays;
// Node's compile cache keeps each source's stripped form, so a process that finds every source
// there never loads it. A serving process started with the cache on from its first line (the
// relaunch under the server flags sets NODE_COMPILE_CACHE) needs nothing more once the cache is
// warm. After an install or an upgrade it is not: then the process, with the platform loaded but
// nothing started, writes the cache and replaces itself (execve: the same pid) with one that
// finds every source in it. That happens once; a process replaced this way does not do it again.
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

const REPLACED = 'SVC_COMPILED_RELAUNCH';

/** Whether this process has loaded Node's TypeScript stripper (Node lists its own modules as they load). */
export function strippedTypeScript(): boolean {
  return (process as { moduleLoadList?: string[] }).moduleLoadList?.some((name) => name.includes('/amaro/')) ?? false;
}

/**
 * The compile cache's folder as this process was given it, for a process it starts (none when the
 * cache is off). Not getCompileCacheDir(): that names the subfolder of this Node version and these
 * V8 flags inside it, and the process started would nest its own subfolder in that one.
 */
export function compileCacheEnv(): { NODE_COMPILE_CACHE?: string } {
  if (!module.getCompileCacheDir?.()) return {};
  // enableCompileCache()'s own default
  return { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache') };
}

/**
 * Replaces this process with the same command once the compile cache holds every source it
 * loaded, when it had to strip any. Returns when there is nothing to do (or Node cannot execve).
 */
export function replaceOnceCompiled(): void {
  const cache = compileCacheEnv();
  if (!cache.NODE_COMPILE_CACHE || process.env[REPLACED] === '1' || typeof process.execve !== 'function' || !strippedTypeScript()) return;
  module.flushCompileCache();
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...cache, [REPLACED]: '1' });
}
