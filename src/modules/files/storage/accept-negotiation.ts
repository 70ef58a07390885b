// Which of two representations a download request gets: the signed one, or the alternative signed
// beside it (an image variant's AVIF beside its WebP). The alternative is chosen only when the
// Accept header names its type exactly: browsers without AVIF still send `image/*` or `*/*`, so a
// wildcard must never select it. A lower quality than the signed type's keeps the signed one.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q') continue;
      const parsed = Number(value);
      q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 0;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** the quality the ranges give `mediaType`, from the most specific range that matches it (0: none) */
function qualityOf(ranges: readonly MediaRange[], mediaType: string, options: { exactOnly: boolean }): number {
  const [type, subtype] = mediaType.toLowerCase().split(';')[0]!.trim().split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const range of ranges) {
    let specificity: number;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (options.exactOnly) continue;
    else if (range.type === type && range.subtype === '*') specificity = 1;
    else if (range.type === '*' && range.subtype === '*') specificity = 0;
    else continue;
    if (!best || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** true when the request should get `alternativeType` rather than `signedType` */
export function prefersAlternative(accept: string | undefined, signedType: string, alternativeType: string): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const alternative = qualityOf(ranges, alternativeType, { exactOnly: true });
  return alternative > 0 && alternative >= qualityOf(ranges, signedType, { exactOnly: false });
}
