// The `magic` rule: file-type reads the leading bytes and names the format; it must be the declared
// type itself (or one of file-type's other names for it), never just something similar.
import { fileTypeFromFile } from 'file-type';

/**
 * What file-type may call each `magic` type of the allowlist. Deliberately narrow: a Canon RAW is
 * TIFF-based and Ogg may carry Theora video, yet neither is what image/tiff or audio/ogg promise,
 * and a zip declared as application/zip must be a plain zip (not a docx, jar or apk: declare those
 * as themselves).
 */
const DETECTED_NAMES: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['image/jpeg'],
  // an animated PNG is still a PNG for every decoder that ignores the animation
  'image/png': ['image/png', 'image/apng'],
  'image/gif': ['image/gif'],
  'image/webp': ['image/webp'],
  'image/tiff': ['image/tiff'],
  'video/webm': ['video/webm'],
  'audio/mpeg': ['audio/mpeg'],
  'audio/wav': ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  'audio/ogg': ['audio/ogg', 'audio/ogg; codecs=opus', 'audio/opus'],
  'audio/flac': ['audio/flac', 'audio/x-flac'],
  'application/pdf': ['application/pdf'],
  'application/zip': ['application/zip'],
};

/** Formats that run code (or install it) when opened: never accepted as text of any kind. */
const EXECUTABLE = new Set([
  'application/x-msdownload',
  'application/x-elf',
  'application/x-mach-binary',
  'application/wasm',
  'application/java-vm',
  'application/java-archive',
  'application/vnd.android.package-archive',
  'application/x-shockwave-flash',
  'application/x-ms-shortcut',
  'application/x-ms-regedit',
  'application/vnd.ms-htmlhelp',
  'application/x-google-chrome-extension',
  'application/x-xpinstall',
]);

/** file-type's name for the content, or undefined when it recognises nothing. */
export async function sniffMime(path: string): Promise<string | undefined> {
  return (await fileTypeFromFile(path))?.mime;
}

/** null when the content is of the declared `magic` type, else why not. */
export function magicMismatch(declared: string, detected: string | undefined): string | null {
  const names = DETECTED_NAMES[declared];
  if (!names) throw new Error(`no magic names for ${declared}`);
  if (!detected) return `The content is not recognisable as ${declared}`;
  if (names.includes(detected)) return null;
  return `The content is ${detected}, not the declared ${declared}`;
}

/** Why text-like content is refused on its magic bytes alone, or null. */
export function executableAsText(declared: string, detected: string | undefined): string | null {
  if (!detected || !EXECUTABLE.has(detected)) return null;
  return `The content is an executable format (${detected}), not ${declared}`;
}
