// The wasm engine's panic hook calls `globalThis.PRISMA_WASM_PANIC_REGISTRY.set_message(text)`
// and then traps. Without this object the hook itself throws, and the caller sees an unrelated
// "Cannot read properties of undefined" TypeError instead of the Rust panic message.

interface PanicRegistry {
  set_message(message: string): void;
}

declare global {
  var PRISMA_WASM_PANIC_REGISTRY: PanicRegistry | undefined;
}

const OURS = Symbol.for('svc.schema-engine.panic-registry');

let lastPanicMessage: string | null = null;

export function installPanicRegistry(): void {
  const previous = globalThis.PRISMA_WASM_PANIC_REGISTRY;
  if (previous && OURS in previous) return;
  globalThis.PRISMA_WASM_PANIC_REGISTRY = {
    [OURS]: true,
    set_message(message: string) {
      lastPanicMessage = message;
      // Another Prisma wasm module in this process (the CLI's own) may rely on its registry.
      previous?.set_message(message);
    },
  } as PanicRegistry;
}

/** The message of the most recent panic, cleared by reading it. */
export function takePanicMessage(): string | null {
  const message = lastPanicMessage;
  lastPanicMessage = null;
  return message;
}
