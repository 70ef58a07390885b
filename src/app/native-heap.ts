// Giving freed native memory back to the operating system. glibc's malloc returns only the free top
// of its heap by itself; memory freed in the middle (e.g. the OpenSSL state of thousands of closed
// TLS connections) stays resident until malloc_trim() is called, which Node never does. It is
// called here through koffi (a maintained FFI library with prebuilt binaries), on glibc Linux only:
// elsewhere (macOS, musl, whose C library is not libc.so.6) this does nothing.
import { createRequire } from 'node:module';

type Trim = (pad: number) => number;

/** undefined until first used: the native library is loaded only when memory is released */
let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return null;
  }
}

/** Returns freed malloc memory to the system; false where the platform has no malloc_trim. */
export function trimNativeHeap(): boolean {
  trim ??= loadTrim();
  if (!trim) return false;
  trim(0);
  return true;
}
