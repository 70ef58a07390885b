// The logo of a tag's QR code: a PNG or JPEG, checked when the tag is written (400 naming the
// field) and scaled by `sharp` when the image is drawn.
import { sharp } from '../../app/on-first-use.ts';
import { ValidationError } from '../../app/errors.ts';

const FIELD = 'qrCodeSettings.logoImageBase64';
const MAX_PIXELS = 4096 * 4096;

export async function checkLogo(base64: string): Promise<void> {
  try {
    const meta = await sharp()(Buffer.from(base64, 'base64'), { limitInputPixels: MAX_PIXELS }).metadata();
    if (meta.format === 'png' || meta.format === 'jpeg') return;
  } catch {
    // not an image sharp reads: refused below
  }
  throw new ValidationError('Invalid action tag', [{ field: FIELD, message: 'must be a PNG or JPEG image' }]);
}

/** The logo as a square PNG of `side` pixels, its aspect kept on a transparent ground. */
export async function logoPng(bytes: Buffer, side: number): Promise<Buffer> {
  try {
    return await sharp()(bytes, { limitInputPixels: MAX_PIXELS }).resize(side, side, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  } catch {
    throw new ValidationError('Invalid QR code settings', [{ field: FIELD, message: 'is not a PNG or JPEG image' }]);
  }
}
