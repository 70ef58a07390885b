// The stamp on every page of the signed document: one line along the page's visible bottom edge,
// "Electronically signed by … on … · signing request … · page i of n", inside the bottom margin
// where documents rarely print. The page's crop box and /Rotate are honoured, so the line reads
// upright at the bottom of landscape and rotated pages too.
import { degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { drawableText } from './drawable-text.ts';

const SIZE = 7;
const INSET = 10;

function fitted(text: string, font: PDFFont, maxWidth: number): { text: string; size: number } {
  let size = SIZE;
  while (size > 4 && font.widthOfTextAtSize(text, size) > maxWidth) size -= 0.5;
  // cut whole code points, never half a surrogate pair
  let chars = [...text];
  let out = text;
  while (chars.length > 8 && font.widthOfTextAtSize(out, size) > maxWidth) {
    chars = [...chars.slice(0, -4), '.', '.', '.'];
    out = chars.join('');
  }
  return { text: out, size };
}

/** Draws `line` along the visible bottom edge of `page`. */
export function stampPage(page: PDFPage, line: string, font: PDFFont): void {
  const box = page.getCropBox();
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  const sideways = rotation === 90 || rotation === 270;
  const visibleWidth = sideways ? box.height : box.width;
  const { text, size } = fitted(drawableText(line, font), font, visibleWidth - 2 * INSET);
  const x0 = box.x;
  const y0 = box.y;
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  // where the visible bottom-left corner is in the page's own coordinates, and which way text runs
  const placement =
    rotation === 90 ? { x: x1 - INSET, y: y0 + INSET, angle: 90 }
    : rotation === 180 ? { x: x1 - INSET, y: y1 - INSET, angle: 180 }
    : rotation === 270 ? { x: x0 + INSET, y: y1 - INSET, angle: 270 }
    : { x: x0 + INSET, y: y0 + INSET, angle: 0 };
  page.drawText(text, { x: placement.x, y: placement.y, size, font, color: rgb(0.15, 0.15, 0.45), rotate: degrees(placement.angle) });
}
