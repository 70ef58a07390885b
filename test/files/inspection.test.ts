// Content inspection (src/modules/files/inspection/): every rule of the allowlist accepts honest
// files of its type and refuses lies, disguises and dangerous content with a message.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, inject, it } from 'vitest';
import { TEXT_MAX_BYTES } from '../../src/modules/files/files.allowlist.ts';
import { inspectFile } from '../../src/modules/files/inspection/inspect-file.ts';
import type { InspectionResult } from '../../src/modules/files/inspection/inspection.ts';
import * as samples from '../support/file-samples.ts';

const dir = path.join(inject('testDataDir'), `inspection-${randomBytes(4).toString('hex')}`);
let counter = 0;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

async function inspect(contentType: string, bytes: Buffer | string): Promise<InspectionResult> {
  counter += 1;
  const file = samples.writeSample(dir, `sample-${counter}`, bytes);
  return inspectFile({ path: file, contentType, sizeBytes: Buffer.byteLength(bytes) });
}

async function refusal(contentType: string, bytes: Buffer | string): Promise<string> {
  const result = await inspect(contentType, bytes);
  if (result.ok) throw new Error(`${contentType} was accepted`);
  expect(result.message.length).toBeGreaterThan(10);
  return result.message;
}

describe('magic bytes', () => {
  it('accepts each image type for what it is, with its pixel size', async () => {
    for (const [type, build] of [
      ['image/jpeg', samples.jpeg],
      ['image/png', samples.png],
      ['image/gif', samples.gif],
      ['image/webp', samples.webp],
      ['image/tiff', samples.tiff],
    ] as const) {
      expect(await inspect(type, await build(64, 48)), type).toEqual({ ok: true, kind: 'IMAGE', width: 64, height: 48 });
    }
  });

  it('refuses an image of another type than declared', async () => {
    expect(await refusal('image/jpeg', await samples.png())).toMatch(/image\/png, not the declared image\/jpeg/);
  });

  it('refuses content nothing recognises', async () => {
    expect(await refusal('image/png', samples.garbage())).toMatch(/not recognisable as image\/png/);
    expect(await refusal('application/pdf', samples.garbage())).toMatch(/not recognisable/);
  });

  it('refuses an image whose header claims more pixels than any decoder will take', async () => {
    expect(await refusal('image/png', samples.pngClaiming(100_000, 100_000))).toMatch(/100000×100000 pixels/);
  });

  it('accepts audio and PDF whose magic agrees (file-type naming them its own way)', async () => {
    expect(await inspect('audio/wav', samples.wav())).toEqual({ ok: true, kind: 'AUDIO' });
    expect(await inspect('application/pdf', samples.pdf())).toEqual({ ok: true, kind: 'DOCUMENT' });
    expect(await refusal('audio/wav', samples.pdf())).toMatch(/application\/pdf, not the declared audio\/wav/);
  });

  it('takes a plain zip as application/zip, but neither a docx nor text', async () => {
    expect(await inspect('application/zip', samples.zip([{ name: 'a.txt', data: 'hello' }]))).toEqual({ ok: true, kind: 'ARCHIVE' });
    expect(await refusal('application/zip', samples.docx())).toMatch(/wordprocessingml.document, not the declared application\/zip/);
    expect(await refusal('application/zip', 'PK but not really a zip')).toMatch(/not recognisable/);
  });
});

describe('ISO base-media brands', () => {
  it('accepts video, audio and image files whose brands fit', async () => {
    expect(await inspect('video/mp4', samples.mp4())).toEqual({ ok: true, kind: 'VIDEO' });
    expect(await inspect('video/quicktime', samples.mov())).toEqual({ ok: true, kind: 'VIDEO' });
    expect(await inspect('audio/mp4', samples.m4a())).toEqual({ ok: true, kind: 'AUDIO' });
    // no HEVC decoder needed: the brand decides, the size stays unknown
    expect(await inspect('image/heic', samples.heic())).toEqual({ ok: true, kind: 'IMAGE' });
    expect(await inspect('image/heif', samples.heic())).toEqual({ ok: true, kind: 'IMAGE' });
    expect(await inspect('image/avif', await samples.avif(64, 48))).toEqual({ ok: true, kind: 'IMAGE', width: 64, height: 48 });
  });

  it('refuses brands of another type', async () => {
    expect(await refusal('image/heic', samples.isoMedia('mif1', ['mif1', 'avif']))).toMatch(/'mif1', 'avif'.*image\/heic/);
    expect(await refusal('image/heic', await samples.avif())).toMatch(/do not make it image\/heic/);
    expect(await refusal('image/avif', samples.heic())).toMatch(/do not make it image\/avif/);
    expect(await refusal('video/quicktime', samples.mp4())).toMatch(/do not make it video\/quicktime/);
    expect(await refusal('video/mp4', samples.isoMedia('3gp4', ['3gp4']))).toMatch(/'3gp4'/);
  });

  it('refuses files without a sound ftyp box', async () => {
    expect(await refusal('video/mp4', await samples.jpeg())).toMatch(/does not start with an ISO base-media ftyp box/);
    const truncated = samples.mp4().subarray(0, 20);
    expect(await refusal('video/mp4', truncated)).toMatch(/truncated/);
    const impossible = Buffer.from(samples.mp4());
    impossible.writeUInt32BE(13, 0);
    expect(await refusal('video/mp4', impossible)).toMatch(/impossible size/);
  });
});

describe('office packages', () => {
  it('accepts a docx, an xlsx and a pptx', async () => {
    expect(await inspect(DOCX, samples.docx())).toEqual({ ok: true, kind: 'DOCUMENT' });
    expect(await inspect(XLSX, samples.xlsx())).toEqual({ ok: true, kind: 'DOCUMENT' });
    expect(await inspect(PPTX, samples.pptx())).toEqual({ ok: true, kind: 'DOCUMENT' });
  });

  it('refuses macro-enabled documents, however they are named', async () => {
    expect(await refusal(DOCX, samples.docm())).toMatch(/macros or ActiveX.*vbaProject\.bin/);
    // a plain docx type, but a VBA project inside
    expect(await refusal(DOCX, samples.docx([{ name: 'word/vbaProject.bin', data: randomBytes(64) }]))).toMatch(/macro/);
    // macro-enabled main type without the binary
    const macroType = samples.officePackage({ main: 'word/document.xml', mainType: samples.WORD_MACRO_MAIN, mainXml: '<w:document xmlns:w="urn:w"/>' });
    expect(await refusal(DOCX, macroType)).toMatch(/macroEnabled/);
    expect(await refusal(DOCX, samples.docx([{ name: 'word/activeX/activeX1.bin', data: randomBytes(64) }]))).toMatch(/ActiveX/);
    expect(await refusal(XLSX, samples.xlsx([{ name: 'xl/macrosheets/sheet1.xml', data: '<x/>' }]))).toMatch(/macro/);
  });

  it('refuses a package whose main part is of another format', async () => {
    expect(await refusal(DOCX, samples.docxWithWorkbookMain())).toMatch(/main document \(xl\/workbook\.xml\) is .*spreadsheetml.*not the main part of .*wordprocessingml/);
    expect(await refusal(PPTX, samples.docx())).toMatch(/wordprocessingml.*not the main part of .*presentationml/);
    const lyingType = samples.officePackage({ main: 'word/document.xml', mainType: samples.EXCEL_MAIN, mainXml: '<w:document xmlns:w="urn:w"/>' });
    expect(await refusal(DOCX, lyingType)).toMatch(/spreadsheetml/);
  });

  it('refuses incomplete packages', async () => {
    const spec = { main: 'word/document.xml', mainType: samples.WORD_MAIN, mainXml: '<w:document xmlns:w="urn:w"/>' };
    expect(await refusal(DOCX, samples.officePackage({ ...spec, omit: '[Content_Types].xml' }))).toMatch(/incomplete: it has no \[Content_Types\]\.xml/);
    expect(await refusal(DOCX, samples.officePackage({ ...spec, omit: '_rels/.rels' }))).toMatch(/_rels\/\.rels/);
    expect(await refusal(DOCX, samples.officePackage({ ...spec, omit: 'word/document.xml' }))).toMatch(/lacks its main document/);
  });

  it('refuses what is no zip, and zips that are not honest', async () => {
    // an OLE compound file: old binary Office, or an encrypted OOXML document
    const cfb = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(1024)]);
    expect(await refusal(DOCX, cfb)).toMatch(/not an Office Open XML package/);
    const traversal = samples.zip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: '../../evil.sh', data: 'rm -rf /' }]);
    expect(await refusal(DOCX, traversal)).toMatch(/not a readable zip.*relative path/);
    const doctype = samples.zip([{ name: '[Content_Types].xml', data: '<!DOCTYPE Types [<!ENTITY x SYSTEM "file:///etc/passwd">]><Types>&x;</Types>' }]);
    expect(await refusal(DOCX, doctype)).toMatch(/DOCTYPE/);
  });

  it('refuses zip bombs before unpacking them', async () => {
    const many = samples.zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}`, data: '', method: 'store' as const })));
    expect(await refusal(DOCX, many)).toMatch(/10001 entries; at most 10000/);
    const huge = samples.docx([{ name: 'word/media/big.bin', data: Buffer.alloc(1000), declaredSize: 0x5000_0000 }]);
    expect(await refusal(DOCX, huge)).toMatch(/expands to more than/);
  });
});

describe('text formats', () => {
  it('accepts UTF-8 text, markdown, CSV, JSON and XML', async () => {
    expect(await inspect('text/plain', 'Grüße, 世界 — plain text\n')).toEqual({ ok: true, kind: 'TEXT' });
    expect(await inspect('text/markdown', '<p align="center"><img src="logo.png"></p>\n\n# Title\n')).toEqual({ ok: true, kind: 'TEXT' });
    expect(await inspect('text/csv', 'a,b\n1,2\n')).toEqual({ ok: true, kind: 'TEXT' });
    expect(await inspect('application/json', '\uFEFF{"a": [1, 2, {"b": null}]}')).toEqual({ ok: true, kind: 'TEXT' });
    expect(await inspect('application/xml', '<?xml version="1.0"?><note xmlns="urn:n"><to a="1">x</to></note>')).toEqual({ ok: true, kind: 'TEXT' });
    expect(await inspect('text/xml', '<a><b/></a>')).toEqual({ ok: true, kind: 'TEXT' });
  });

  it('refuses invalid UTF-8 and NUL bytes', async () => {
    expect(await refusal('text/plain', Buffer.from([0x48, 0x69, 0xc3, 0x28, 0x0a]))).toMatch(/not valid UTF-8/);
    expect(await refusal('text/csv', Buffer.from('a,b\n1,\u00002\n'))).toMatch(/NUL byte \(at byte 6\)/);
    expect(await refusal('text/plain', samples.garbage())).toMatch(/NUL|UTF-8/);
  });

  it('refuses HTML declared as text', async () => {
    expect(await refusal('text/plain', '\n  <!DOCTYPE html><html><body><script>alert(1)</script>')).toMatch(/HTML document, not text\/plain/);
    expect(await refusal('text/markdown', '<html lang="en"><body>hi</body></html>')).toMatch(/HTML/);
    expect(await refusal('text/csv', '<script>alert(1)</script>')).toMatch(/HTML/);
    expect(await refusal('application/xml', '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).toMatch(/HTML/);
  });

  it('refuses text that file-type takes for an executable format', async () => {
    expect(await refusal('text/plain', 'REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\Software\\x]\r\n"a"="b"\r\n')).toMatch(/executable format \(application\/x-ms-regedit\)/);
  });

  it('refuses text over the size cap', async () => {
    expect(await refusal('text/plain', Buffer.alloc(TEXT_MAX_BYTES + 1, 0x61))).toMatch(/limited to 10485760 bytes/);
  });

  it('refuses JSON that does not parse', async () => {
    expect(await refusal('application/json', '{"a": 1,}')).toMatch(/JSON does not parse/);
    expect(await refusal('application/json', '')).toMatch(/JSON does not parse/);
  });

  it('refuses XML that is malformed, has any DOCTYPE, or would act as a web page', async () => {
    expect(await refusal('application/xml', '<a><b></a>')).toMatch(/not well-formed: 1:\d+/);
    const billionLaughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>';
    expect(await refusal('application/xml', billionLaughs)).toMatch(/DOCTYPE/);
    const external = '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>';
    expect(await refusal('text/xml', external)).toMatch(/DOCTYPE/);
    expect(await refusal('application/xml', '<!DOCTYPE note SYSTEM "note.dtd"><note/>')).toMatch(/DOCTYPE/);
    expect(await refusal('application/xml', '<doc><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></doc>')).toMatch(/XHTML elements \(<script>\)/);
    expect(await refusal('application/xml', '<svg xmlns="http://www.w3.org/2000/svg"/>')).toMatch(/image\/svg\+xml/);
    expect(await refusal('application/xml', '<?xml-stylesheet type="text/xsl" href="x.xsl"?><doc/>')).toMatch(/xml-stylesheet/);
    expect(await refusal('application/xml', `${'<a>'.repeat(600)}${'</a>'.repeat(600)}`)).toMatch(/nest deeper than 512/);
  });
});

describe('SVG', () => {
  const hostile = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" viewBox="0 0 12 8" onload="alert('load')">
  <script>alert('script')</script>
  <style>@import url(https://evil.example/x.css); rect { fill: red }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><circle id="dot" r="1"/></defs>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></div></foreignObject>
  <a href="javascript:alert('href')"><text x="1" y="5">link</text></a>
  <a xlink:href="javascript:alert('xlink')"><rect width="1" height="1"/></a>
  <use href="https://evil.example/sprite.svg#icon"/>
  <use xlink:href="#dot" x="3"/>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <rect width="4" height="4" fill="url(#g)" onclick="alert('click')"/>
  <rect width="4" height="4" fill="url(https://evil.example/paint)" style="fill: url(https://evil.example/p)"/>
  <animate attributeName="href" to="javascript:alert('animate')"/>
  <set attributeName="onmouseover" to="alert('set')"/>
</svg>`;

  it('sanitizes a hostile SVG into a clean, still well-formed SVG', async () => {
    const result = await inspect('image/svg+xml', hostile);
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ kind: 'IMAGE', width: 120, height: 80 });
    const clean = result.replacement!.toString('utf8');
    for (const gone of ['<script', 'alert(', 'onload', 'onclick', 'foreignObject', 'iframe', 'javascript:', 'evil.example', '@import', '<animate', '<set']) {
      expect(clean, gone).not.toContain(gone);
    }
    // a style sheet that fetches from elsewhere is emptied whole
    expect(clean).not.toContain('fill: red');
    // what is safe survives
    for (const kept of ['linearGradient', 'fill="url(#g)"', 'xlink:href="#dot"', 'data:image/png;base64', '>link</text>', 'viewBox="0 0 12 8"']) {
      expect(clean, kept).toContain(kept);
    }
    const { window } = new JSDOM('');
    const parsed = new window.DOMParser().parseFromString(clean, 'image/svg+xml');
    expect(parsed.documentElement.localName).toBe('svg');
    expect(parsed.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(parsed.getElementsByTagName('parsererror')).toHaveLength(0);
    // the stored document passes inspection itself, unchanged
    const again = await inspect('image/svg+xml', result.replacement!);
    expect(again.ok && again.replacement!.equals(result.replacement!)).toBe(true);
  });

  it('keeps a harmless SVG as it is, its size from the viewBox', async () => {
    const result = await inspect('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300.4 150"><circle cx="5" cy="5" r="4" fill="#0a0"/></svg>');
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ kind: 'IMAGE', width: 300, height: 150 });
    expect(result.replacement!.toString()).toContain('<circle cx="5" cy="5" r="4" fill="#0a0"/>');
  });

  it('gives no size for relative dimensions', async () => {
    const result = await inspect('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="50%"/>');
    expect(result).toMatchObject({ ok: true, kind: 'IMAGE' });
    expect(result.ok && [result.width, result.height]).toEqual([undefined, undefined]);
  });

  it('refuses SVG that is malformed, has a DOCTYPE, or is not rooted in <svg>', async () => {
    expect(await refusal('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')).toMatch(/not well-formed/);
    const entity = '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>';
    expect(await refusal('image/svg+xml', entity)).toMatch(/DOCTYPE/);
    expect(await refusal('image/svg+xml', '<svg><rect/></svg>')).toMatch(/SVG namespace/);
    expect(await refusal('image/svg+xml', '<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>')).toMatch(/HTML/);
    expect(await refusal('image/svg+xml', '<x:doc xmlns:x="urn:x"/>')).toMatch(/root element must be <svg>.*not <doc>/);
    expect(await refusal('image/svg+xml', await samples.png())).toMatch(/NUL|UTF-8/);
  });
});

describe('SVG with the public SVG 1.1 DOCTYPE of older editors', () => {
  it('drops the plain DOCTYPE and keeps the drawing; a DOCTYPE with an internal subset is still refused', async () => {
    const { sanitizeSvg } = await import('../../src/modules/files/inspection/sanitize-svg.ts');
    const plain = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: Adobe Illustrator -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
    const kept = sanitizeSvg(plain);
    expect(kept.ok).toBe(true);
    if (kept.ok) {
      expect(kept.svg.toString()).toContain('<rect');
      expect(kept.svg.toString()).not.toContain('DOCTYPE');
    }
    const subset = '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(sanitizeSvg(subset).ok).toBe(false);
  });
});

describe('image dimensions', () => {
  it('are the size as shown: a photo stored sideways (EXIF orientation 6) reports them swapped back', async () => {
    const sharp = (await import('sharp')).default;
    const fs = await import('node:fs');
    const os = await import('node:os');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dims-')), 'sideways.jpg');
    await sharp({ create: { width: 40, height: 20, channels: 3, background: '#888' } }).jpeg().withMetadata({ orientation: 6 }).toFile(file);
    const result = await inspectFile({ path: file, contentType: 'image/jpeg', sizeBytes: fs.statSync(file).size });
    expect(result).toMatchObject({ ok: true, width: 20, height: 40 });
  });
});
