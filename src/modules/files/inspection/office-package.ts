// The `office` rule: a docx, xlsx or pptx is an OPC package (a zip). Its package relationships
// (_rels/.rels) name the main part, [Content_Types].xml gives that part's type, and the type must
// be the declared format's own main type: a "docx" whose main part is a workbook is refused, and
// so is anything macro-enabled or carrying ActiveX controls, whatever the file calls itself.
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Entry } from 'yauzl';
import { checkXml } from './xml-check.ts';
import { looksLikeZip, openZip, readEntry, ZIP_LIMITS, zipEntries } from './zip-reading.ts';

const MAIN_TYPES: Readonly<Record<string, string>> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
};

/** the officeDocument relationship, in transitional and in strict OOXML */
const OFFICE_DOCUMENT_RELATIONSHIPS = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument',
]);

/** package XML parts are small; a larger one is not an honest package */
const MAX_PACKAGE_XML_BYTES = 1024 * 1024;

/**
 * Parts and content types that carry code: VBA projects (and Word's vbaData), ActiveX controls,
 * Excel 4 macro sheets, and every macro-enabled variant of the formats.
 */
const MACRO_PART = /(?:^|\/)(?:vbaproject\.bin|vbadata\.xml)$|(?:^|\/)(?:activex|macrosheets)\//i;
const MACRO_CONTENT_TYPE = /macroenabled|vbaproject|vbadata|activex|macrosheet/i;

export type OfficeCheck = { ok: true } | { ok: false; message: string };

const refuse = (message: string): OfficeCheck => ({ ok: false, message });

interface ContentTypes {
  defaults: Map<string, string>;
  overrides: Map<string, string>;
}

function parseContentTypes(xml: string): ContentTypes | string {
  const defaults = new Map<string, string>();
  const overrides = new Map<string, string>();
  const checked = checkXml(xml, (element) => {
    const type = element.attributes.get('ContentType');
    if (element.local === 'Default' && type) defaults.set((element.attributes.get('Extension') ?? '').toLowerCase(), type);
    if (element.local === 'Override' && type) overrides.set((element.attributes.get('PartName') ?? '').toLowerCase(), type);
    return undefined;
  });
  return checked.ok ? { defaults, overrides } : `[Content_Types].xml: ${checked.message}`;
}

/** The main part's name (zip entry name, lower case) from the package relationships. */
function mainPartName(xml: string): string | null | { problem: string } {
  let target: string | null = null;
  let external = false;
  const checked = checkXml(xml, (element) => {
    if (element.local !== 'Relationship' || !OFFICE_DOCUMENT_RELATIONSHIPS.has(element.attributes.get('Type') ?? '')) return undefined;
    target = element.attributes.get('Target') ?? null;
    external = element.attributes.get('TargetMode') === 'External';
    return undefined;
  });
  if (!checked.ok) return { problem: `_rels/.rels: ${checked.message}` };
  if (external) return { problem: 'its main document is an external reference' };
  if (target === null) return null;
  // targets are relative to the package root; a leading slash makes them absolute within it
  const name = path.posix.normalize((target as string).replace(/^\/+/, ''));
  if (name.startsWith('../') || name === '..') return { problem: 'its main document lies outside the package' };
  return name.toLowerCase();
}

function partType(types: ContentTypes, partName: string): string | undefined {
  return types.overrides.get(`/${partName}`) ?? types.defaults.get(path.posix.extname(partName).slice(1));
}

async function startsAsZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return looksLikeZip(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export async function inspectOfficePackage(file: string, declared: string): Promise<OfficeCheck> {
  const expectedMain = MAIN_TYPES[declared];
  if (!expectedMain) throw new Error(`no main part type for ${declared}`);
  // Office writes its packages from the first byte; data in front of the zip means a polyglot
  if (!(await startsAsZip(file))) return refuse('The file is not an Office Open XML package (a zip); password-protected and old binary Office files are not accepted');

  let zip;
  try {
    zip = await openZip(file);
  } catch (error) {
    return refuse(`The Office package is not a readable zip: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > ZIP_LIMITS.maxEntries) return refuse(`The package has ${zip.entryCount} entries; at most ${ZIP_LIMITS.maxEntries} are accepted`);
    const entries = new Map<string, Entry>();
    let declaredBytes = 0;
    try {
      for await (const entry of zipEntries(zip)) {
        const name = entry.fileName.toLowerCase();
        if (MACRO_PART.test(name)) return refuse(`The document contains macros or ActiveX controls (${entry.fileName}); macro-enabled documents are not accepted`);
        declaredBytes += entry.uncompressedSize;
        if (declaredBytes > ZIP_LIMITS.maxUncompressedBytes) return refuse(`The package expands to more than ${ZIP_LIMITS.maxUncompressedBytes} bytes`);
        if (entries.has(name)) return refuse(`The package holds ${entry.fileName} twice`);
        entries.set(name, entry);
      }
    } catch (error) {
      return refuse(`The Office package is not a readable zip: ${(error as Error).message}`);
    }

    const read = async (name: string): Promise<string | { problem: string }> => {
      const entry = entries.get(name.toLowerCase());
      if (!entry) return { problem: `it has no ${name}` };
      if (entry.isEncrypted()) return { problem: `${name} is encrypted` };
      try {
        const bytes = await readEntry(zip, entry, MAX_PACKAGE_XML_BYTES);
        if (!bytes) return { problem: `${name} is larger than ${MAX_PACKAGE_XML_BYTES} bytes` };
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch (error) {
        return { problem: `${name} cannot be read (${(error as Error).message})` };
      }
    };

    const typesXml = await read('[Content_Types].xml');
    if (typeof typesXml !== 'string') return refuse(`The Office package is incomplete: ${typesXml.problem}`);
    const types = parseContentTypes(typesXml);
    if (typeof types === 'string') return refuse(`The Office package is malformed: ${types}`);
    for (const type of [...types.defaults.values(), ...types.overrides.values()]) {
      if (MACRO_CONTENT_TYPE.test(type)) return refuse(`The document declares macro or ActiveX content (${type}); macro-enabled documents are not accepted`);
    }

    const relsXml = await read('_rels/.rels');
    if (typeof relsXml !== 'string') return refuse(`The Office package is incomplete: ${relsXml.problem}`);
    const main = mainPartName(relsXml);
    if (main === null) return refuse('The Office package names no main document in _rels/.rels');
    if (typeof main !== 'string') return refuse(`The Office package is malformed: ${main.problem}`);
    if (!entries.has(main)) return refuse(`The Office package lacks its main document (${main})`);
    const mainType = partType(types, main);
    if (mainType !== expectedMain) {
      return refuse(`The package's main document (${main}) is ${mainType ?? 'of no declared type'}, not the main part of ${declared}`);
    }
    return { ok: true };
  } finally {
    zip.close();
  }
}
