// The image of a tag's code (docs/api/action-tags.md "QR code"): `publicUrl?source=QR` encoded by
// `qrcode` with the tag's qrCodeSettings (colors, error correction), and its logo drawn in the
// middle by `sharp` (PNG) or as an embedded image (SVG). A logo covers modules, so error
// correction H is used whenever there is one.
import type QRCodeModule from 'qrcode';
import { onFirstUse, sharp } from '../../app/on-first-use.ts';
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { requireActionTagAccess } from './action-tag-plan.ts';
import type { QrCodeSettings } from './action-tags.input.ts';
import { publicUrlOf, tagOf } from './action-tags.service.ts';
import { logoPng } from './qr-logo.ts';

const qrcode = onFirstUse<typeof QRCodeModule>('qrcode');

export interface QrImage {
  contentType: string;
  base64: string;
  encodedUrl: string;
}

const LOGO_SHARE = 0.22;

export async function actionTagQrCode(ctx: RequestContext, simplyId: string, format: string | null | undefined, size: number | null | undefined): Promise<QrImage> {
  const kind = format ?? 'svg';
  if (kind !== 'svg' && kind !== 'png') throw new ValidationError('Invalid QR code request', [{ field: 'format', message: 'must be svg or png' }]);
  const width = size ?? 512;
  if (!Number.isInteger(width) || width < 128 || width > 2048) throw new ValidationError('Invalid QR code request', [{ field: 'size', message: 'must be a whole number of pixels from 128 to 2048' }]);
  await requireActionTagAccess(ctx);
  const tag = await tagOf(ctx, ctx.services.prisma, simplyId);
  const settings = (tag.qrCodeSettings ?? {}) as Partial<QrCodeSettings>;
  const logo = settings.logoImageBase64 ? Buffer.from(settings.logoImageBase64, 'base64') : null;
  const encodedUrl = `${publicUrlOf(ctx, tag.simplyId, tag.teamId)}?source=QR`;
  const options = {
    errorCorrectionLevel: logo ? 'H' : (settings.errorCorrection ?? 'M'),
    margin: 4,
    width,
    color: { dark: settings.foregroundColor ?? '#000000', light: settings.backgroundColor ?? '#ffffff' },
  } as const;
  if (kind === 'svg') {
    let svg = await qrcode().toString(encodedUrl, { ...options, type: 'svg' });
    if (logo) {
      const png = await logoPng(logo, 256);
      const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
      const side = Number(viewBox?.[1] ?? 0);
      const l = side * LOGO_SHARE;
      const at = (side - l) / 2;
      svg = svg.replace('</svg>', `<rect x="${at}" y="${at}" width="${l}" height="${l}" fill="${options.color.light}"/><image x="${at}" y="${at}" width="${l}" height="${l}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`);
    }
    return { contentType: 'image/svg+xml', base64: Buffer.from(svg).toString('base64'), encodedUrl };
  }
  let png = await qrcode().toBuffer(encodedUrl, { ...options, type: 'png' });
  if (logo) {
    const side = Math.round(width * LOGO_SHARE);
    const mark = await logoPng(logo, side);
    const pad = await sharp()({ create: { width: side, height: side, channels: 4, background: options.color.light } }).composite([{ input: mark }]).png().toBuffer();
    png = await sharp()(png).composite([{ input: pad, gravity: 'centre' }]).png().toBuffer();
  }
  return { contentType: 'image/png', base64: png.toString('base64'), encodedUrl };
}
