// Giving freed native memory back to the operating system. glibc's malloc returns only the free top
// of its heap by itself; memory freed in the middle (e.g. the OpenSSL state of thousands of closed
// TLS connections) stays resident until malloc_trim() is called, which Node never does. It is
// called here through koffi (a maintained FFI library with prebuilt binaries), on glibc Linux only;
// elsewhere (macOS, musl) this does nothing.
import { createRequire } from 'node:module';

type Trim = (pad: number) => number;

/**
 * A function that returns freed malloc memory to the system, or null where the platform has no
 * malloc_trim (not glibc). Call it once, early: the glibc check reads a process report, which
 * lists every open handle.
 */
export function nativeHeapTrimmer(): (() => void) | null {
  if (process.platform !== 'linux' || !process.report?.getReport) return null;
  // glibc announces itself in the process report; musl builds do not
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  if (!header?.glibcVersionRuntime) return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
    return () => void trim(0);
  } catch {
    return null;
  }
}
