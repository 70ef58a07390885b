// Does an uploaded file's content agree with its declared, allowlisted type? Applies the type's
// inspection rule (files.allowlist.ts). Bad content is answered with { ok: false, message };
// only failing to read the file throws.
import { allowedType, type AllowedType } from '../files.allowlist.ts';
import { brandMismatch, readFileTypeBox } from './base-media-brand.ts';
import { imageSize } from './image-dimensions.ts';
import type { InspectionInput, InspectionResult } from './inspection.ts';
import { inspectOfficePackage } from './office-package.ts';
import { sanitizeSvg } from './sanitize-svg.ts';
import { executableAsText, magicMismatch, sniffMime } from './sniff-magic.ts';
import { formatProblem, htmlInDisguise, readUtf8Text } from './text-formats.ts';

const refuse = (message: string): InspectionResult => ({ ok: false, message });

export async function inspectFile(input: InspectionInput): Promise<InspectionResult> {
  const type = allowedType(input.contentType);
  if (!type) return refuse(`${input.contentType} is not an allowed content type`);
  switch (type.inspection) {
    case 'magic':
      return inspectMagic(input, type);
    case 'base-media':
      return inspectBaseMedia(input, type);
    case 'office': {
      const checked = await inspectOfficePackage(input.path, input.contentType);
      return checked.ok ? { ok: true, kind: type.kind } : checked;
    }
    case 'text':
    case 'csv':
    case 'json':
    case 'xml':
    case 'svg':
      return inspectText(input, type, type.inspection);
  }
}

async function inspectMagic(input: InspectionInput, type: AllowedType): Promise<InspectionResult> {
  const mismatch = magicMismatch(input.contentType, await sniffMime(input.path));
  if (mismatch) return refuse(mismatch);
  if (type.kind !== 'IMAGE') return { ok: true, kind: type.kind };
  const size = await imageSize(input.path, input.contentType);
  return size.ok ? { ok: true, kind: type.kind, width: size.width, height: size.height } : refuse(size.message);
}

async function inspectBaseMedia(input: InspectionInput, type: AllowedType): Promise<InspectionResult> {
  const box = await readFileTypeBox(input.path);
  if (typeof box === 'string') return refuse(box);
  const mismatch = brandMismatch(input.contentType, box);
  if (mismatch) return refuse(mismatch);
  if (type.kind !== 'IMAGE') return { ok: true, kind: type.kind };
  const size = await imageSize(input.path, input.contentType);
  if (size.ok) return { ok: true, kind: type.kind, width: size.width, height: size.height };
  // libvips may lack a decoder for the codec inside (HEVC): the brand check stands and the size
  // stays unknown; an image stating too many pixels is refused all the same
  return size.tooLarge ? refuse(size.message) : { ok: true, kind: type.kind };
}

async function inspectText(input: InspectionInput, type: AllowedType, rule: 'text' | 'csv' | 'json' | 'xml' | 'svg'): Promise<InspectionResult> {
  const read = await readUtf8Text(input.path);
  if (!read.ok) return read;
  const executable = executableAsText(input.contentType, await sniffMime(input.path));
  if (executable) return refuse(executable);
  const html = htmlInDisguise(read.text, input.contentType);
  if (html) return refuse(html);
  if (rule === 'svg') {
    const sanitized = sanitizeSvg(read.text);
    if (!sanitized.ok) return sanitized;
    return { ok: true, kind: type.kind, width: sanitized.width, height: sanitized.height, replacement: sanitized.svg };
  }
  const problem = formatProblem(read.text, rule);
  return problem ? refuse(problem) : { ok: true, kind: type.kind };
}
