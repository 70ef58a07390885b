// Image variants with real sharp over images built here: a 12 MP JPEG stored sideways (EXIF
// orientation 6) carrying GPS, XMP and a Display P3 profile; a small PNG with alpha; SVGs, one
// of them slow to draw; an animated GIF; a CMYK JPEG; undecodable input. Every output is
// decoded again and looked at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIANT_TYPES, type RenderedVariant } from '../../src/modules/files/variants/image-variant-types.ts';
import { imageSize, renderImageVariants } from '../../src/modules/files/variants/image-variants.ts';
import { rasterizeSvg } from '../../src/modules/files/variants/svg-rasterizer.ts';
import { UnreadableImageError } from '../../src/modules/files/variants/unreadable-image-error.ts';
import { AVIF_MIN_EDGE } from '../../src/modules/files/variants/variant-plan.ts';
import { pngClaiming, writeSample } from '../support/file-samples.ts';

let dir: string;
const RED = { r: 230, g: 20, b: 20 };
const BLUE = { r: 20, g: 40, b: 220 };
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Secret Photographer</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>';

/**
 * 4000 × 3000 as stored: left half red, right half blue, a soft gradient over both (so the
 * encoders have something to compress). Orientation 6 means "rotate 90° clockwise to show",
 * which turns it into 3000 × 4000 with red on top.
 */
async function sidewaysPhoto(): Promise<Buffer> {
  const half = (c: typeof RED) => sharp({ create: { width: 2000, height: 3000, channels: 3, background: c } }).png().toBuffer();
  const shade = await sharp(Buffer.from([0, 60, 0, 60]), { raw: { width: 2, height: 2, channels: 1 } })
    .resize(4000, 3000, { kernel: 'cubic' })
    .png()
    .toBuffer();
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#000' } })
    .composite([
      { input: await half(RED), left: 0, top: 0 },
      { input: await half(BLUE), left: 2000, top: 0 },
      { input: shade, blend: 'add' },
    ])
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'TestCam', Model: 'Sideways' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1', GPSMapDatum: 'WGS-84' } })
    .withMetadata({ orientation: 6 })
    .withXmp(XMP)
    .withIccProfile('p3')
    .toBuffer();
}

async function pixelAt(bytes: Buffer, xFraction: number, yFraction: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const x = Math.min(info.width - 1, Math.floor(info.width * xFraction));
  const y = Math.min(info.height - 1, Math.floor(info.height * yFraction));
  const i = (y * info.width + x) * info.channels;
  return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]! };
}

const isRed = (p: { r: number; g: number; b: number }) => p.r > 170 && p.g < 110 && p.b < 110;
const isBlue = (p: { r: number; g: number; b: number }) => p.b > 170 && p.r < 110;

/** decodes the variant and checks that it is what it says, with no metadata left */
async function expectCleanVariant(variant: RenderedVariant) {
  const metadata = await sharp(variant.bytes).metadata();
  // sharp names AVIF by its container, HEIF, and its codec, AV1
  expect(metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : metadata.format).toBe(variant.format);
  expect({ width: metadata.width, height: metadata.height }).toEqual({ width: variant.width, height: variant.height });
  expect(metadata.exif).toBeUndefined();
  expect(metadata.xmp).toBeUndefined();
  expect(metadata.iptc).toBeUndefined();
  expect(metadata.icc).toBeUndefined();
  expect(metadata.orientation).toBeUndefined();
  expect(metadata.space).toBe('srgb');
  // the whole encoded file, not only what sharp parses, is free of the secrets
  for (const secret of ['WGS-84', 'TestCam', 'Secret Photographer', 'xmpmeta']) expect(variant.bytes.includes(secret)).toBe(false);
  // and it decodes to pixels
  const { info } = await sharp(variant.bytes).raw().toBuffer({ resolveWithObject: true });
  expect(info.width * info.height).toBe(variant.width * variant.height);
}

const webpOf = (variants: RenderedVariant[]) => new Map(variants.filter((v) => v.format === 'webp').map((v) => [v.variantType, v]));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-variants-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a 12 MP JPEG stored sideways with EXIF GPS, XMP and a P3 profile', () => {
  let file: string;
  let rendered: Awaited<ReturnType<typeof renderImageVariants>>;

  beforeAll(async () => {
    file = writeSample(dir, 'sideways.jpg', await sidewaysPhoto());
    // the sample really carries what the variants must drop
    const source = await sharp(file).metadata();
    expect(source.orientation).toBe(6);
    expect(source.exif?.includes('WGS-84')).toBe(true);
    expect(source.xmp).toBeDefined();
    expect(source.icc).toBeDefined();
    rendered = await renderImageVariants(file);
  });

  it('reports the size as shown, after orientation', async () => {
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 3000, height: 4000 });
    expect(await imageSize(file)).toEqual({ width: 3000, height: 4000 });
  });

  it('renders every variant type in WebP at the planned size, never larger than the source', () => {
    const webp = webpOf(rendered.variants);
    expect([...webp.keys()]).toEqual([...VARIANT_TYPES]);
    const sizes = Object.fromEntries([...webp].map(([type, v]) => [type, `${v.width}x${v.height}`]));
    expect(sizes).toEqual({
      THUMBNAIL_IMAGE: '192x256',
      WEB_SIZE_IMAGE: '1200x1600',
      RESPONSIVE_320: '320x427',
      RESPONSIVE_640: '640x853',
      RESPONSIVE_960: '960x1280',
      RESPONSIVE_1280: '1280x1707',
      RESPONSIVE_1920: '1920x2560',
    });
    for (const v of rendered.variants) {
      expect(v.width).toBeLessThanOrEqual(3000);
      expect(v.height).toBeLessThanOrEqual(4000);
    }
  });

  it('keeps an AVIF only for large variants and only when clearly smaller than its WebP', () => {
    const webp = webpOf(rendered.variants);
    const avif = rendered.variants.filter((v) => v.format === 'avif');
    for (const v of avif) {
      expect(Math.max(v.width, v.height)).toBeGreaterThanOrEqual(AVIF_MIN_EDGE);
      expect({ width: v.width, height: v.height }).toEqual({ width: webp.get(v.variantType)!.width, height: webp.get(v.variantType)!.height });
      expect(v.bytes.length).toBeLessThanOrEqual(webp.get(v.variantType)!.bytes.length * 0.8);
    }
    // on this smooth image AVIF pays for every size from AVIF_MIN_EDGE up, and nothing smaller gets one
    expect(avif.map((v) => v.variantType)).toEqual(['WEB_SIZE_IMAGE', 'RESPONSIVE_960', 'RESPONSIVE_1280', 'RESPONSIVE_1920']);
  });

  it('drops EXIF (GPS), XMP and the ICC profile from every variant, which decode as sRGB', async () => {
    expect(rendered.variants.length).toBeGreaterThanOrEqual(VARIANT_TYPES.length);
    for (const v of rendered.variants) await expectCleanVariant(v);
  });

  it('applies the orientation to the pixels: red on top, blue below', async () => {
    for (const v of rendered.variants) {
      expect(isRed(await pixelAt(v.bytes, 0.5, 0.2)), `${v.variantType} ${v.format} top`).toBe(true);
      expect(isBlue(await pixelAt(v.bytes, 0.5, 0.8)), `${v.variantType} ${v.format} bottom`).toBe(true);
    }
  });
});

describe('small and unusual sources', () => {
  it('a 200 × 100 PNG gets its thumbnail and web size at its own size and no responsive variant wider than itself', async () => {
    const png = await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 20, g: 40, b: 220, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const rendered = await renderImageVariants(writeSample(dir, 'small.png', png));
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 200, height: 100 });
    expect(rendered.variants.map((v) => `${v.variantType} ${v.format} ${v.width}x${v.height}`)).toEqual([
      'THUMBNAIL_IMAGE webp 200x100',
      'WEB_SIZE_IMAGE webp 200x100',
    ]);
    for (const v of rendered.variants) {
      await expectCleanVariant(v);
      // transparency survives
      expect((await sharp(v.bytes).metadata()).hasAlpha).toBe(true);
      expect(isBlue(await pixelAt(v.bytes, 0.5, 0.5))).toBe(true);
    }
  });

  it('an image 700 pixels wide gets RESPONSIVE_320 and _640 at exactly those widths, nothing wider', async () => {
    const jpeg = await sharp({ create: { width: 700, height: 350, channels: 3, background: RED } }).jpeg().toBuffer();
    const rendered = await renderImageVariants(writeSample(dir, 'medium.jpg', jpeg));
    expect(rendered.variants.map((v) => `${v.variantType} ${v.format} ${v.width}x${v.height}`)).toEqual([
      'THUMBNAIL_IMAGE webp 256x128',
      'WEB_SIZE_IMAGE webp 700x350',
      'RESPONSIVE_320 webp 320x160',
      'RESPONSIVE_640 webp 640x320',
    ]);
  });

  it('an image AVIF does not compress better than WebP (hard-edged 4-pixel blocks) gets no AVIF', async () => {
    // a fixed pseudo-random sequence, so the outcome is the same every run
    let seed = 1;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const blocks = Buffer.alloc(240 * 192 * 3);
    for (let i = 0; i < blocks.length; i++) blocks[i] = next();
    const png = await sharp(blocks, { raw: { width: 240, height: 192, channels: 3 } }).resize(960, 768, { kernel: 'nearest' }).png().toBuffer();
    const rendered = await renderImageVariants(writeSample(dir, 'blocks.png', png));
    expect(rendered.variants.map((v) => `${v.variantType} ${v.format} ${v.width}x${v.height}`)).toEqual([
      'THUMBNAIL_IMAGE webp 256x205',
      'WEB_SIZE_IMAGE webp 960x768',
      'RESPONSIVE_320 webp 320x256',
      'RESPONSIVE_640 webp 640x512',
      'RESPONSIVE_960 webp 960x768',
    ]);
  });

  it('a strip 20 times taller than wide gets no responsive variant taller than WebP allows', async () => {
    const png = await sharp({ create: { width: 1000, height: 20_000, channels: 3, background: BLUE } }).png().toBuffer();
    const rendered = await renderImageVariants(writeSample(dir, 'strip.png', png));
    expect(rendered.variants.filter((v) => v.format === 'webp').map((v) => `${v.variantType} ${v.width}x${v.height}`)).toEqual([
      'THUMBNAIL_IMAGE 13x256',
      'WEB_SIZE_IMAGE 80x1600',
      'RESPONSIVE_320 320x6400',
      'RESPONSIVE_640 640x12800',
    ]);
    for (const v of rendered.variants) await expectCleanVariant(v);
  });

  it('an SVG is rasterized at a density that fills the largest variant, and reports its intrinsic size', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="150" height="150" fill="red"/><rect x="150" width="150" height="150" fill="blue"/></svg>';
    const file = writeSample(dir, 'shape.svg', svg);
    const rendered = await renderImageVariants(file);
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 300, height: 150 });
    expect(await imageSize(file)).toEqual({ width: 300, height: 150 });
    const sizes = Object.fromEntries([...webpOf(rendered.variants)].map(([type, v]) => [type, `${v.width}x${v.height}`]));
    expect(sizes).toEqual({
      THUMBNAIL_IMAGE: '256x128',
      WEB_SIZE_IMAGE: '1600x800',
      RESPONSIVE_320: '320x160',
      RESPONSIVE_640: '640x320',
      RESPONSIVE_960: '960x480',
      RESPONSIVE_1280: '1280x640',
      RESPONSIVE_1920: '1920x960',
    });
    for (const v of rendered.variants) {
      await expectCleanVariant(v);
      expect(isRed(await pixelAt(v.bytes, 0.25, 0.5))).toBe(true);
      expect(isBlue(await pixelAt(v.bytes, 0.75, 0.5))).toBe(true);
    }
  });

  it('an SVG stating a size beyond the pixel limit is refused with a clear error, not rendered', async () => {
    const file = writeSample(dir, 'huge.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000"><rect width="10" height="10"/></svg>');
    await expect(renderImageVariants(file)).rejects.toThrow(UnreadableImageError);
    await expect(renderImageVariants(file)).rejects.toThrow(/pixel limit/);
    expect(await imageSize(file)).toBeNull();
  });

  it('a PNG whose header claims 20000 × 20000 pixels is refused before any decoding', async () => {
    const file = writeSample(dir, 'bomb.png', pngClaiming(20_000, 20_000));
    await expect(renderImageVariants(file)).rejects.toThrow(/pixel limit/);
  });

  it('an animated GIF gives variants of its first frame', async () => {
    const frames = await Promise.all(
      [RED, BLUE, { r: 20, g: 200, b: 20 }].map((c) => sharp({ create: { width: 60, height: 40, channels: 3, background: c } }).raw().toBuffer()),
    );
    const gif = await sharp(Buffer.concat(frames), { raw: { width: 60, height: 120, channels: 3, pageHeight: 40 } })
      .gif({ delay: [100, 100, 100], loop: 0 })
      .toBuffer();
    const file = writeSample(dir, 'animated.gif', gif);
    expect((await sharp(file).metadata()).pages).toBe(3);
    const rendered = await renderImageVariants(file);
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 60, height: 40 });
    expect(rendered.variants.map((v) => `${v.variantType} ${v.width}x${v.height}`)).toEqual(['THUMBNAIL_IMAGE 60x40', 'WEB_SIZE_IMAGE 60x40']);
    for (const v of rendered.variants) {
      expect((await sharp(v.bytes).metadata()).pages ?? 1).toBe(1);
      expect(isRed(await pixelAt(v.bytes, 0.5, 0.5))).toBe(true);
    }
  });

  it('a CMYK JPEG becomes sRGB', async () => {
    // a colour inside the CMYK gamut, so the round trip keeps it
    const steel = { r: 51, g: 102, b: 153 };
    const cmyk = await sharp({ create: { width: 400, height: 300, channels: 3, background: steel } }).toColourspace('cmyk').jpeg().toBuffer();
    const file = writeSample(dir, 'cmyk.jpg', cmyk);
    expect((await sharp(file).metadata()).space).toBe('cmyk');
    const rendered = await renderImageVariants(file);
    for (const v of rendered.variants) {
      await expectCleanVariant(v);
      expect((await sharp(v.bytes).metadata()).channels).toBe(3);
      const p = await pixelAt(v.bytes, 0.5, 0.5);
      for (const channel of ['r', 'g', 'b'] as const) expect(Math.abs(p[channel] - steel[channel])).toBeLessThan(25);
    }
  });

  it('undecodable input is an UnreadableImageError, and imageSize answers null', async () => {
    const garbage = writeSample(dir, 'garbage.jpg', Buffer.from('this is not an image at all'));
    await expect(renderImageVariants(garbage)).rejects.toThrow(UnreadableImageError);
    expect(await imageSize(garbage)).toBeNull();
    // a JPEG cut short: the header reads, the pixels do not
    const whole = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    const truncated = writeSample(dir, 'truncated.jpg', whole.subarray(0, Math.floor(whole.length / 2)));
    expect(await imageSize(truncated)).toEqual({ width: 800, height: 600 });
    const failure = await renderImageVariants(truncated).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnreadableImageError);
    expect((failure as Error).message).toMatch(/^The image could not be decoded: /);
  });
});

/** Sanitizer-legal SVG (filters are allowed) that librsvg needs minutes to draw at 1920 pixels. */
function slowSvg(): string {
  let shapes = '';
  for (let i = 0; i < 300; i++) {
    shapes += `<rect x="${i % 100}" y="${(i * 7) % 100}" width="50" height="50" fill="#${((i * 4999) % 0xffffff).toString(16).padStart(6, '0')}" opacity="0.5" filter="url(#f)"/>`;
  }
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><filter id="f"><feGaussianBlur stdDeviation="20"/>' +
    `<feTurbulence baseFrequency="0.9" numOctaves="10"/></filter></defs>${shapes}</svg>`
  );
}

/** process ids whose command line names `file` (the rasterizer child gets the SVG's path) */
function processesNaming(file: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(file)) found.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

describe('an SVG that takes too long to draw', () => {
  it('is stopped at the time limit: the rasterizing process is killed and the error says why', async () => {
    const file = writeSample(dir, 'slow-timeout.svg', slowSvg());
    const started = performance.now();
    const error = await rasterizeSvg(file, 1382, { limitInputPixels: 0x3fff * 0x3fff, timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableImageError);
    expect((error as Error).message).toBe('The SVG did not rasterize within 1 s');
    expect(performance.now() - started).toBeLessThan(5000);
    await expect.poll(() => processesNaming(file), { timeout: 2000 }).toEqual([]);
  });

  it('is stopped when the caller aborts', async () => {
    const file = writeSample(dir, 'slow-abort.svg', slowSvg());
    const controller = new AbortController();
    const started = performance.now();
    const rendering = renderImageVariants(file, { signal: controller.signal });
    await expect.poll(() => processesNaming(file).length, { timeout: 5000 }).toBe(1);
    controller.abort(new Error('no longer needed'));
    await expect(rendering).rejects.toThrow('no longer needed');
    expect(performance.now() - started).toBeLessThan(8000);
    await expect.poll(() => processesNaming(file), { timeout: 2000 }).toEqual([]);
  });
});

describe('aborting', () => {
  it('an aborted signal stops before any work, and one aborted mid-way stops before the next step', async () => {
    const file = writeSample(dir, 'abort.jpg', await sharp({ create: { width: 2000, height: 1500, channels: 3, background: RED } }).jpeg().toBuffer());
    const before = new AbortController();
    before.abort(new Error('cancelled before'));
    await expect(renderImageVariants(file, { signal: before.signal })).rejects.toThrow('cancelled before');

    const during = new AbortController();
    const rendering = renderImageVariants(file, { signal: during.signal });
    during.abort(new Error('cancelled during'));
    await expect(rendering).rejects.toThrow('cancelled during');
  });
});
