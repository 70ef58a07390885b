// Sample files for the inspection and scanning tests, built here rather than checked in: real
// images from sharp, zips from a small writer of our own (it can also write the malformed
// archives a library would refuse to), office packages, ISO base-media boxes and the EICAR test
// file.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

// ---------- files on disk

/** Writes a sample into dir and returns its path. */
export function writeSample(dir: string, name: string, bytes: Buffer | string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

// ---------- images

function gradient(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } });
}

export const jpeg = (width = 64, height = 48) => gradient(width, height).jpeg().toBuffer();
export const png = (width = 64, height = 48) => gradient(width, height).png().toBuffer();
export const gif = (width = 64, height = 48) => gradient(width, height).gif().toBuffer();
export const webp = (width = 64, height = 48) => gradient(width, height).webp().toBuffer();
export const tiff = (width = 64, height = 48) => gradient(width, height).tiff().toBuffer();
export const avif = (width = 64, height = 48) => gradient(width, height).avif().toBuffer();

/**
 * A PNG whose header claims width×height pixels over a tiny (invalid) body: enough for a header
 * reader, a decompression bomb for anything that would decode it.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateRawSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- audio and documents with magic bytes

/** A valid PCM WAV of `samples` silent 16-bit mono samples. */
export function wav(samples = 800): Buffer {
  const data = Buffer.alloc(samples * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A one-page PDF. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Bytes no format claims (file-type recognises nothing in them). */
export function garbage(length = 4096): Buffer {
  const bytes = randomBytes(length);
  bytes.write('\x01\x02garbage', 0, 'latin1');
  return bytes;
}

// ---------- ISO base media

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** An ISO base-media file: an ftyp box with the brands given, then a small mdat box. */
export function isoMedia(major: string, compatible: readonly string[]): Buffer {
  const brands = Buffer.alloc(8 + 4 * compatible.length);
  brands.write(major, 0, 'latin1');
  compatible.forEach((brand, i) => brands.write(brand, 8 + 4 * i, 'latin1'));
  return Buffer.concat([box('ftyp', brands), box('mdat', randomBytes(256))]);
}

export const mp4 = () => isoMedia('isom', ['isom', 'iso2', 'avc1', 'mp41']);
export const mov = () => isoMedia('qt  ', ['qt  ']);
export const m4a = () => isoMedia('M4A ', ['M4A ', 'mp42', 'isom']);
export const heic = () => isoMedia('heic', ['mif1', 'heic']);

// ---------- zips

export interface ZipEntrySpec {
  name: string;
  data: Buffer | string;
  /** deflate (the default) or store */
  method?: 'deflate' | 'store';
  /** a lie about the unpacked size, written into both headers */
  declaredSize?: number;
}

/** A zip archive of the given entries, in order (UTF-8 names, no encryption, no zip64). */
export function zip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const method = entry.method === 'store' ? 0 : 8;
    const packed = method === 8 ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const size = entry.declaredSize ?? data.length;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    // extra, comment, disk, internal and external attributes stay 0
    central.writeUInt32LE(offset, 42);

    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------- office packages

export const WORD_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
export const EXCEL_MAIN = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
export const POWERPOINT_MAIN = 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml';
export const WORD_MACRO_MAIN = 'application/vnd.ms-word.document.macroEnabled.main+xml';

export interface OfficeSpec {
  /** the main part's name, as _rels/.rels points to it */
  main: string;
  /** the content type [Content_Types].xml gives the main part */
  mainType: string;
  mainXml: string;
  /** more entries, and their content types (Override) when given */
  extra?: readonly (ZipEntrySpec & { contentType?: string })[];
  /** leave out an entry by name ('[Content_Types].xml', '_rels/.rels', or the main part) */
  omit?: string;
}

export function officePackage(spec: OfficeSpec): Buffer {
  const extra = spec.extra ?? [];
  const overrides = [{ name: spec.main, type: spec.mainType }, ...extra.filter((e) => e.contentType).map((e) => ({ name: e.name, type: e.contentType! }))];
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    overrides.map((o) => `<Override PartName="/${o.name}" ContentType="${o.type}"/>`).join('') +
    '</Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${spec.main}"/>` +
    '</Relationships>';
  const entries: ZipEntrySpec[] = [
    { name: '[Content_Types].xml', data: contentTypes },
    { name: '_rels/.rels', data: rels },
    { name: spec.main, data: spec.mainXml },
    ...extra,
  ];
  return zip(entries.filter((e) => e.name !== spec.omit));
}

const WORD_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';
const EXCEL_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>';
const POWERPOINT_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>';

export const docx = (extra?: OfficeSpec['extra']) => officePackage({ main: 'word/document.xml', mainType: WORD_MAIN, mainXml: WORD_XML, extra });
export const xlsx = (extra?: OfficeSpec['extra']) => officePackage({ main: 'xl/workbook.xml', mainType: EXCEL_MAIN, mainXml: EXCEL_XML, extra });
export const pptx = (extra?: OfficeSpec['extra']) => officePackage({ main: 'ppt/presentation.xml', mainType: POWERPOINT_MAIN, mainXml: POWERPOINT_XML, extra });

/** A docm in all but name: macro-enabled main part and a VBA project. */
export const docm = () =>
  officePackage({
    main: 'word/document.xml',
    mainType: WORD_MACRO_MAIN,
    mainXml: WORD_XML,
    extra: [{ name: 'word/vbaProject.bin', data: randomBytes(512), contentType: 'application/vnd.ms-office.vbaProject' }],
  });

/** A docx whose main document is really a workbook (xl/workbook.xml). */
export const docxWithWorkbookMain = () => xlsx();

// ---------- malware test files

/** The EICAR anti-virus test file (eicar.org), assembled at run time: see builtin-scanner.ts. */
export const eicar = (): Buffer => Buffer.from('WDVPIVAlQEFQWzRcUFpYNTQoUF4pN0NDKTd9JEVJQ0FSLVNUQU5EQVJELUFOVElWSVJVUy1URVNULUZJTEUhJEgrSCo=', 'base64');

/** A zip holding EICAR (deflated, so that only unpacking finds it). */
export const zipWithEicar = () => zip([{ name: 'readme.txt', data: 'nothing here' }, { name: 'tools/eicar.com', data: eicar() }]);

/** A docx carrying EICAR as an embedded part. */
export const docxWithEicar = () => docx([{ name: 'word/embeddings/eicar.bin', data: eicar(), contentType: 'application/vnd.openxmlformats-officedocument.oleObject' }]);
