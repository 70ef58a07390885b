// Loads @prisma/schema-engine-wasm by hand. Its ESM entry does `import * as wasm from "./x.wasm"`,
// which Node cannot import, so we compile the .wasm beside the JS glue ourselves and wire the two
// together the way that entry would have.
//
// A Rust panic (or a JS exception thrown through Rust frames, e.g. a params deserialisation error)
// traps the instance: the engine's RefCells stay borrowed and every later call fails with
// "recursive use of an object". Such traps surface inside the engine's own async callbacks, where
// they would become uncaught exceptions and leave the caller's promise pending forever. We guard
// those callbacks, report the trap to whoever is waiting, and load a fresh instance next time.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as WasmGlue from '@prisma/schema-engine-wasm/schema_engine_bg';
import { SchemaEnginePanicError } from './errors.ts';
import { installPanicRegistry, takePanicMessage } from './panic-registry.ts';

export type SchemaEngineBindings = typeof WasmGlue;

export interface SchemaEngineWasm {
  readonly bindings: SchemaEngineBindings;
  /** Set once this instance trapped; it must not be used again. */
  readonly trap: SchemaEnginePanicError | null;
  /** Calls `listener` if this instance traps. Returns the unsubscribe function. */
  onTrap(listener: (error: SchemaEnginePanicError) => void): () => void;
  /** Records a trap seen synchronously by a caller (e.g. a RuntimeError thrown by a direct call). */
  reportTrap(error: unknown): SchemaEnginePanicError;
}

// `import.meta.resolve` is not available under vitest; createRequire resolves the same export map.
const require = createRequire(import.meta.url);
const GLUE_SPECIFIER = '@prisma/schema-engine-wasm/schema_engine_bg';

let current: Promise<SchemaEngineWasm> | null = null;
let compiled: Promise<WebAssembly.Module> | null = null;
let generation = 0;

/** How many engine instances this process has made (the start of a server on an up-to-date database makes none). */
export function schemaEngineInstances(): number {
  return generation;
}

/** The wasm engine, instantiated once per process (again only after a trap). */
export function loadSchemaEngineWasm(): Promise<SchemaEngineWasm> {
  current ??= instantiate().catch((error: unknown) => {
    current = null; // let a later call retry (e.g. after a transient read error)
    throw error;
  });
  return current;
}

async function instantiate(): Promise<SchemaEngineWasm> {
  installPanicRegistry();
  const gluePath = require.resolve(GLUE_SPECIFIER);
  // Each instance needs its own copy of the glue module: it caches views of the wasm memory in
  // module-level variables, which would point at a discarded instance's memory after a reload.
  generation += 1;
  const glueUrl = `${pathToFileURL(gluePath).href}?instance=${generation}`;
  const glue = (await import(glueUrl)) as SchemaEngineBindings;
  // compiled once; a reload after a trap only needs a new instance
  compiled ??= fs.promises.readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm')).then((bytes) => WebAssembly.compile(bytes));
  const module = await compiled.catch((error: unknown) => {
    compiled = null;
    throw error;
  });

  const listeners = new Set<(error: SchemaEnginePanicError) => void>();
  let loaded: Promise<SchemaEngineWasm> | null = null;
  const wasm: SchemaEngineWasm = {
    bindings: glue,
    trap: null,
    onTrap(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reportTrap(error) {
      if (wasm.trap) return wasm.trap;
      const trap = toPanicError(error);
      (wasm as { trap: SchemaEnginePanicError | null }).trap = trap;
      if (current === loaded) current = null;
      for (const listener of listeners) listener(trap);
      listeners.clear();
      return trap;
    },
  };
  const imports = guardedImports(glue as unknown as Record<string, unknown>, (error) => wasm.reportTrap(error));
  const instance = await WebAssembly.instantiate(module, {
    './schema_engine_bg.js': imports as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
  loaded = current;
  return wasm;
}

function toPanicError(error: unknown): SchemaEnginePanicError {
  const panic = takePanicMessage();
  const detail = panic ?? (error instanceof Error ? error.message : String(error));
  return new SchemaEnginePanicError(`The schema engine aborted: ${detail}`, { cause: error });
}

/**
 * The imports through which the engine schedules its own callbacks (`queueMicrotask`, promise
 * `then`, `setTimeout`) get those callbacks wrapped, so a trap inside them is reported instead of
 * escaping as an uncaught exception. Timers are also unref'd: the engine arms timeouts (e.g. for
 * its advisory lock) and never clears them, which kept finished processes alive for ~10 s.
 */
function guardedImports(glue: Record<string, unknown>, onTrap: (error: unknown) => void): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  const guard =
    (callback: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      try {
        return callback(...args);
      } catch (error) {
        onTrap(error);
        return undefined;
      }
    };
  const wrapCallbacks = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) =>
    original(...args.map((arg) => (typeof arg === 'function' ? guard(arg as (...a: unknown[]) => unknown) : arg)));

  const found = { timer: 0, schedule: 0 };
  for (const [name, value] of Object.entries(glue)) {
    if (typeof value !== 'function') continue;
    const original = value as (...args: unknown[]) => unknown;
    if (name.startsWith('__wbg_setTimeout_')) {
      found.timer += 1;
      imports[name] = (...args: unknown[]) => (wrapCallbacks(original)(...args) as NodeJS.Timeout).unref();
    } else if (name.startsWith('__wbg_queueMicrotask_') || name.startsWith('__wbg_then_')) {
      found.schedule += 1;
      imports[name] = wrapCallbacks(original);
    }
  }
  if (found.timer === 0 || found.schedule === 0) {
    throw new Error('@prisma/schema-engine-wasm: its glue no longer exports setTimeout/queueMicrotask/then imports; update load-wasm.ts');
  }
  return imports;
}

/**
 * The prisma-engines commit the wasm was built from, read from the package version
 * (`7.10.0-4.<hash>`) so that `--version` does not need to instantiate 5 MB of wasm.
 */
export function engineCommitHash(): string {
  const packageJson = path.join(path.dirname(require.resolve(GLUE_SPECIFIER)), 'package.json');
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
  return version.slice(version.lastIndexOf('.') + 1);
}
