// Malware scanners (src/modules/files/scanning/): the built-in signature scanner and a real clamd
// over INSTREAM find the EICAR test file plain, in a zip and in a docx, pass clean files, and
// answer ScanError (timedOut for the deadline) whenever they cannot give a verdict.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import { freePort } from '../../src/db/free-port.ts';
import { ZIP_LIMITS } from '../../src/modules/files/inspection/zip-reading.ts';
import { createBuiltinScanner } from '../../src/modules/files/scanning/builtin-scanner.ts';
import { createClamdScanner, parseClamdReply, parseClamdUrl } from '../../src/modules/files/scanning/clamd-scanner.ts';
import { createMalwareScanner } from '../../src/modules/files/scanning/create-scanner.ts';
import { type MalwareScanner, ScanError } from '../../src/modules/files/scanning/malware-scanner.ts';
import { clamdMissing, type ClamdServer, startClamd } from '../support/clamd-server.ts';
import * as samples from '../support/file-samples.ts';

const dir = path.join(inject('testDataDir'), `scanners-${randomBytes(4).toString('hex')}`);
const TIMEOUT = { timeoutMs: 20_000 };

/** text-like filler without the bytes of any signature */
function filler(length: number): Buffer {
  return Buffer.alloc(length, 'lorem ipsum dolor sit amet ');
}

function withEicarAt(offset: number, length: number): Buffer {
  const bytes = filler(length);
  samples.eicar().copy(bytes, offset);
  return bytes;
}

const nestedZipWithEicar = () => samples.zip([{ name: 'inner.zip', data: samples.zipWithEicar() }]);

async function expectScanError(work: Promise<unknown>, timedOut: boolean, message: RegExp): Promise<ScanError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScanError);
  expect((error as ScanError).timedOut).toBe(timedOut);
  expect((error as ScanError).message).toMatch(message);
  return error as ScanError;
}

/** the cases both scanners must agree on */
function sharedCases(scanner: () => MalwareScanner, signature: RegExp) {
  it('finds EICAR as the file, inside a zip and inside a docx', async () => {
    for (const [name, bytes] of [
      ['eicar.com', samples.eicar()],
      ['eicar.zip', samples.zipWithEicar()],
      ['eicar.docx', samples.docxWithEicar()],
      ['nested.zip', nestedZipWithEicar()],
    ] as const) {
      const verdict = await scanner().scan(samples.writeSample(dir, name, bytes), TIMEOUT);
      expect(verdict.clean, name).toBe(false);
      expect(!verdict.clean && verdict.signature, name).toMatch(signature);
    }
  });

  it('passes clean files of every sort', async () => {
    for (const [name, bytes] of [
      ['clean.txt', Buffer.from('nothing to see here\n')],
      ['clean.png', await samples.png()],
      ['clean.pdf', samples.pdf()],
      ['clean.docx', samples.docx()],
      ['clean.zip', samples.zip([{ name: 'a.txt', data: 'a' }, { name: 'b/c.json', data: '{}' }])],
      ['empty', Buffer.alloc(0)],
      // an EICAR cut short is no EICAR
      ['partial.txt', samples.eicar().subarray(0, 60)],
    ] as const) {
      expect(await scanner().scan(samples.writeSample(dir, name, bytes), TIMEOUT), name).toEqual({ clean: true });
    }
  });

  it('streams a multi-megabyte file in chunks, finding EICAR past the first chunk', async () => {
    expect(await scanner().scan(samples.writeSample(dir, 'big-clean.txt', filler(3 * 1024 * 1024)), TIMEOUT)).toEqual({ clean: true });
    const verdict = await scanner().scan(samples.writeSample(dir, 'big-eicar.txt', withEicarAt(2 * 1024 * 1024 + 17, 3 * 1024 * 1024)), TIMEOUT);
    expect(!verdict.clean && verdict.signature).toMatch(signature);
  });
}

describe('built-in scanner', () => {
  const scanner = () => createBuiltinScanner();

  sharedCases(scanner, /^Eicar-Test-Signature$/);

  it('finds a signature split across read chunks', async () => {
    // createReadStream reads 64 KiB at a time
    for (const offset of [65_536 - 68, 65_536 - 34, 65_536 - 1, 65_536]) {
      const verdict = await scanner().scan(samples.writeSample(dir, `seam-${offset}`, withEicarAt(offset, 200_000)), TIMEOUT);
      expect(verdict, String(offset)).toEqual({ clean: false, signature: 'Eicar-Test-Signature' });
    }
  });

  it('opens nested archives only to its depth limit', async () => {
    const file = samples.writeSample(dir, 'nested-depth.zip', nestedZipWithEicar());
    expect(await createBuiltinScanner({ ...ZIP_LIMITS, maxDepth: 2 }).scan(file, TIMEOUT)).toEqual({ clean: false, signature: 'Eicar-Test-Signature' });
    expect(await createBuiltinScanner({ ...ZIP_LIMITS, maxDepth: 1 }).scan(file, TIMEOUT)).toEqual({ clean: true });
  });

  it('gives no verdict on zip bombs', async () => {
    const bomb = samples.writeSample(dir, 'bomb.zip', samples.zip([{ name: 'zeros', data: Buffer.alloc(4 * 1024 * 1024) }]));
    await expectScanError(createBuiltinScanner({ ...ZIP_LIMITS, maxUncompressedBytes: 1024 * 1024 }).scan(bomb, TIMEOUT), false, /unpacks to more than 1048576 bytes/);
    const many = samples.writeSample(dir, 'many.zip', samples.zip(Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, data: 'x' }))));
    await expectScanError(createBuiltinScanner({ ...ZIP_LIMITS, maxEntries: 20 }).scan(many, TIMEOUT), false, /more than 20 entries/);
    // an entry holding more than it declares (yauzl checks)
    const liar = samples.writeSample(dir, 'liar.zip', samples.zip([{ name: 'small', data: Buffer.alloc(100_000), declaredSize: 10 }]));
    await expectScanError(scanner().scan(liar, TIMEOUT), false, /could not be unpacked/);
  });

  it('gives no verdict on an archive it cannot read', async () => {
    const broken = samples.writeSample(dir, 'broken.zip', Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(200)]));
    await expectScanError(scanner().scan(broken, TIMEOUT), false, /archive could not be read/);
  });

  it('times out', async () => {
    const big = samples.writeSample(dir, 'slow.bin', filler(64 * 1024 * 1024));
    await expectScanError(scanner().scan(big, { timeoutMs: 5 }), true, /longer than 5 ms/);
  });
});

const missing = clamdMissing();
if (missing) console.warn(`scanners.test.ts: skipping the clamd tests: ${missing}`);

describe.skipIf(missing)('clamd scanner (a real clamd)', () => {
  let clamd: ClamdServer;
  beforeAll(async () => {
    clamd = await startClamd({ streamMaxLength: '4M' });
  });
  afterAll(async () => {
    await clamd?.close();
  });

  const scanner = () => createClamdScanner(clamd.url);

  sharedCases(scanner, /^Eicar-Test-Signature/);

  it('scans over a unix socket too', async () => {
    const file = samples.writeSample(dir, 'unix-eicar.zip', samples.zipWithEicar());
    const verdict = await createClamdScanner(clamd.socketUrl).scan(file, TIMEOUT);
    expect(!verdict.clean && verdict.signature).toMatch(/^Eicar-Test-Signature/);
  });

  it("answers ScanError past clamd's StreamMaxLength", async () => {
    const file = samples.writeSample(dir, 'too-long.txt', filler(5 * 1024 * 1024));
    await expectScanError(scanner().scan(file, TIMEOUT), false, /size limit exceeded|StreamMaxLength/);
  });
});

describe('clamd scanner without a clamd', () => {
  it('answers ScanError when nothing listens', async () => {
    const file = samples.writeSample(dir, 'nobody.txt', 'hello');
    await expectScanError(createClamdScanner(`tcp://127.0.0.1:${await freePort()}`).scan(file, TIMEOUT), false, /unreachable.*ECONNREFUSED/);
    await expectScanError(createClamdScanner(`unix://${dir}/no-such.sock`).scan(file, TIMEOUT), false, /unreachable.*ENOENT/);
  });

  it('answers ScanError timedOut when clamd accepts and never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const file = samples.writeSample(dir, 'silent.txt', 'hello');
      const started = Date.now();
      await expectScanError(createClamdScanner(`tcp://127.0.0.1:${port}`).scan(file, { timeoutMs: 300 }), true, /no verdict within 300 ms/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('answers ScanError when the peer hangs up without a verdict', async () => {
    const rude = net.createServer((socket) => {
      socket.resume();
      socket.end();
    });
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = rude.address() as net.AddressInfo;
      const file = samples.writeSample(dir, 'rude.txt', 'hello');
      await expectScanError(createClamdScanner(`tcp://127.0.0.1:${port}`).scan(file, TIMEOUT), false, /without a reply|dropped/);
    } finally {
      await new Promise((resolve) => rude.close(resolve));
    }
  });

  it('reads every form of reply and address', () => {
    expect(parseClamdReply('stream: OK')).toEqual({ clean: true });
    expect(parseClamdReply('stream: Win.Test.EICAR_HDB-1 FOUND')).toEqual({ clean: false, signature: 'Win.Test.EICAR_HDB-1' });
    expect(() => parseClamdReply('INSTREAM size limit exceeded. ERROR')).toThrow(/size limit exceeded/);
    expect(() => parseClamdReply('hello')).toThrow(ScanError);
    expect(parseClamdUrl('tcp://clamav.internal:3310')).toEqual({ host: 'clamav.internal', port: 3310 });
    expect(parseClamdUrl('tcp://[::1]:3310')).toEqual({ host: '::1', port: 3310 });
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(() => parseClamdUrl('http://x')).toThrow(/CLAMD_URL/);
  });

  it('is the configured scanner when CLAMD_URL is set, the built-in one otherwise', () => {
    expect(createMalwareScanner(loadConfig({ CLAMD_URL: 'tcp://127.0.0.1:3310' })).name).toBe('clamd');
    expect(createMalwareScanner(loadConfig({})).name).toBe('builtin');
  });
});

