// The text-like rules (`text`, `csv`, `json`, `xml`; `svg` continues in sanitize-svg.ts): the
// whole upload is read, must be UTF-8 without NUL bytes, must not be HTML in disguise, and must
// parse as its format.
import { open } from 'node:fs/promises';
import { TEXT_MAX_BYTES } from '../files.allowlist.ts';
import { checkXml } from './xml-check.ts';

export type TextRead = { ok: true; text: string } | { ok: false; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the file in full (never more than TEXT_MAX_BYTES) as UTF-8 text. */
export async function readUtf8Text(path: string): Promise<TextRead> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  try {
    const { size } = await handle.stat();
    if (size > TEXT_MAX_BYTES) return { ok: false, message: `Text files are limited to ${TEXT_MAX_BYTES} bytes; this one has ${size}` };
    bytes = Buffer.alloc(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    bytes = bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) return { ok: false, message: `The text contains a NUL byte (at byte ${nul}): binary content is not text` };
  try {
    // a leading byte-order mark is dropped by the decoder
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, message: 'The text is not valid UTF-8' };
  }
}

/**
 * The openings by which browsers and mail clients take a document for HTML. Markdown may well
 * start with `<p align="center">` or `<div>`, so only whole-document HTML is refused.
 */
const HTML_OPENING = /^(?:<!doctype\s+html|<html|<head|<body|<script)(?:[\s>/]|$)/i;

/** Why the text is refused as HTML in disguise, or null. */
export function htmlInDisguise(text: string, declared: string): string | null {
  if (!HTML_OPENING.test(text.trimStart())) return null;
  return `The content is an HTML document, not ${declared} (HTML uploads are not accepted)`;
}

const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Why a text of the given rule does not parse as its format, or null. */
export function formatProblem(text: string, rule: 'text' | 'csv' | 'json' | 'xml'): string | null {
  switch (rule) {
    case 'text':
    case 'csv':
      return null;
    case 'json':
      try {
        JSON.parse(text);
        return null;
      } catch (error) {
        return `The JSON does not parse: ${(error as Error).message}`;
      }
    case 'xml':
      return xmlProblem(text);
  }
}

/**
 * Beyond well-formedness, XML must not be a web page by other means: XHTML or SVG elements run
 * scripts when a browser renders the document, and an xml-stylesheet instruction can turn it into
 * HTML (XSLT). SVG has a type of its own (image/svg+xml), which is sanitized.
 */
function xmlProblem(text: string): string | null {
  const checked = checkXml(text, (element) => {
    if (element.uri === XHTML_NS) return `it holds XHTML elements (<${element.local}>); HTML uploads are not accepted`;
    if (element.uri === SVG_NS) return `it holds SVG elements (<${element.local}>); upload SVG as image/svg+xml`;
    return undefined;
  });
  if (!checked.ok) return checked.message;
  if (checked.processingInstructions.has('xml-stylesheet')) return 'The XML is refused: it names a stylesheet (<?xml-stylesheet?>) that would transform it when opened';
  return null;
}
