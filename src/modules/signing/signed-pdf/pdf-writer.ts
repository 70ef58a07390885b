// A small flowing-text writer over pdf-lib for the pages the platform draws itself (the document
// generated from review fields, the signatures, the certificate): A4 pages, wrapped lines, a page
// break whenever the next block does not fit, and a running header on every page it starts.
import { PDFDocument, PDFFont, PDFImage, PDFPage, rgb, type RGB } from 'pdf-lib';
import { drawableText } from './drawable-text.ts';
import type { Fonts } from './fonts.ts';

export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const LINE_FACTOR = 1.3;

/** Splits drawable text into lines no wider than `maxWidth`; a word longer than a line is cut. */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const clean = drawableText(paragraph, font);
    let line = '';
    for (const word of clean.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      // cut whole code points, never half a surrogate pair
      let rest = [...word];
      while (font.widthOfTextAtSize(rest.join(''), size) > maxWidth) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut).join(''), size) > maxWidth) cut--;
        lines.push(rest.slice(0, cut).join(''));
        rest = rest.slice(cut);
      }
      line = rest.join('');
    }
    lines.push(line);
  }
  return lines;
}

export interface TextStyle {
  font?: keyof Fonts;
  size?: number;
  color?: RGB;
  indent?: number;
}

export class FlowWriter {
  private page!: PDFPage;
  private y = 0;
  readonly width = A4[0] - 2 * MARGIN;

  private readonly doc: PDFDocument;
  readonly fonts: Fonts;
  private readonly header: string;

  constructor(doc: PDFDocument, fonts: Fonts, header: string) {
    this.doc = doc;
    this.fonts = fonts;
    this.header = header;
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
    const size = 8;
    this.page.drawText(drawableText(this.header, this.fonts.regular), { x: MARGIN, y: A4[1] - MARGIN / 2, size, font: this.fonts.regular, color: rgb(0.4, 0.4, 0.4) });
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  space(height: number): void {
    this.y -= height;
  }

  /** Height the wrapped text would take. */
  measure(text: string, style: TextStyle = {}): number {
    const size = style.size ?? 10;
    return wrapText(text, this.fonts[style.font ?? 'regular'], size, this.width - (style.indent ?? 0)).length * size * LINE_FACTOR;
  }

  text(text: string, style: TextStyle = {}): void {
    const font = this.fonts[style.font ?? 'regular'];
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    for (const line of wrapText(text, font, size, this.width - indent)) {
      this.ensure(size * LINE_FACTOR);
      this.y -= size;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: style.color ?? rgb(0, 0, 0) });
      this.y -= size * (LINE_FACTOR - 1);
    }
  }

  rule(): void {
    this.ensure(8);
    this.y -= 4;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + this.width, y: this.y }, thickness: 0.5, color: rgb(0.7, 0.7, 0.7) });
    this.y -= 4;
  }

  /** Draws an image inside a box of at most `maxWidth` × `maxHeight`, keeping its aspect ratio. */
  image(image: PDFImage, maxWidth: number, maxHeight: number, indent = 0): void {
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const w = image.width * scale;
    const h = image.height * scale;
    this.ensure(h + 4);
    this.y -= h;
    this.page.drawImage(image, { x: MARGIN + indent, y: this.y, width: w, height: h });
    this.y -= 4;
  }
}
