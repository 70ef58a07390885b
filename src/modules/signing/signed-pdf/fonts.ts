// The fonts of the pages the platform draws and of the page stamp: DejaVu Sans (regular, bold,
// oblique) and DejaVu Sans Mono from the dejavu-fonts-ttf package, embedded as subsets through
// fontkit. They cover Latin (with Latin Extended), Greek and Cyrillic, among others, so names and
// texts in those scripts are drawn exactly; the standard PDF fonts only knew Windows-1252.
// The font files are read once per process, on first use; each document embeds (and subsets) its
// own copy. Subsetting is deterministic: pdf-lib names the subset from a per-document RNG with a
// fixed seed, so the same input still gives the same bytes.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFDocument, PDFFont } from 'pdf-lib';

const require = createRequire(import.meta.url);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  mono: PDFFont;
}

const FILES: Record<keyof Fonts, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
};

type FontBytes = Record<keyof Fonts, Uint8Array>;
let fontBytes: Promise<FontBytes> | null = null;
let fontkit: unknown = null;

/** The TTF files, read once per process (a failed read is retried on the next call). */
export function loadFontBytes(): Promise<FontBytes> {
  if (!fontBytes) {
    const dir = `${require.resolve('dejavu-fonts-ttf/package.json').replace(/package\.json$/, '')}ttf/`;
    const keys = Object.keys(FILES) as (keyof Fonts)[];
    fontBytes = Promise.all(keys.map((key) => readFile(`${dir}${FILES[key]}`))).then(
      (buffers) => Object.fromEntries(keys.map((key, i) => [key, new Uint8Array(buffers[i]!)])) as FontBytes,
      (error: unknown) => {
        fontBytes = null;
        throw error;
      },
    );
  }
  return fontBytes;
}

/** Embeds the four fonts into `doc` as subsets (only the glyphs drawn end up in the file). */
export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const bytes = await loadFontBytes();
  fontkit ??= require('@pdf-lib/fontkit');
  doc.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  // one after another: the subset names come from the document's seeded RNG, in call order
  const regular = await doc.embedFont(bytes.regular, { subset: true });
  const bold = await doc.embedFont(bytes.bold, { subset: true });
  const italic = await doc.embedFont(bytes.italic, { subset: true });
  const mono = await doc.embedFont(bytes.mono, { subset: true });
  return { regular, bold, italic, mono };
}
