// Variant downloads in a chosen format (format=webp|avif) or by the Accept header of the request
// to the platform's own storage URL, with real sharp output checked byte for byte; and variant
// bytes counted against the team storage limit (README FILE_STORAGE_QUOTA_BYTES), through uploads,
// new versions and variants rendered past the limit.
import sharp from 'sharp';
import { Agent, fetch as undiciFetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk } from '../support/expect-envelope.ts';
import { createIntent, uploadFile } from '../support/file-uploads.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { until } from '../support/until.ts';

const { server, teams } = useServer({ teams: 3, runJobs: true, ownDatabase: 'files_variant_formats' });
const [team, counted, overflow] = teams;

const call = (method: string, path: string, o: { token?: string; body?: unknown } = {}) => server.request(method, path, { token: o.token ?? team.apiKey, body: o.body });

async function fetchUrl(url: string, accept?: string) {
  const response = await undiciFetch(url, { headers: accept ? { accept } : {}, dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** an ISO base-media file whose major brand is avif: `....ftypavif` */
const isAvif = (bytes: Buffer) => bytes.subarray(4, 12).toString('latin1') === 'ftypavif';
/** RIFF....WEBP */
const isWebp = (bytes: Buffer) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';

/** A smooth gradient: AVIF compresses it clearly better than WebP, so the large variants keep an AVIF. */
function smoothImage(width: number, height: number): Promise<Buffer> {
  const corners = Buffer.from([230, 30, 40, 20, 60, 220, 250, 200, 40, 30, 160, 70]);
  return sharp(corners, { raw: { width: 2, height: 2, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).png().toBuffer();
}

async function uploadImage(who: TeamFixture, bytes: Buffer, filename: string): Promise<string> {
  const done = await uploadFile(server, who.apiKey, bytes, { filename, contentType: 'image/png' });
  expect(done.status, done.rejectionMessage).toBe('COMPLETED');
  return done.fileSimplyId;
}

async function variantsOf(who: TeamFixture, fileId: string): Promise<{ variantType: string; format: string; fileSizeBytes: number }[]> {
  return until(`variants of ${fileId}`, async () => {
    const list = expectOk(await call('GET', `/v1/files/${fileId}/variants`, { token: who.apiKey }));
    return list.length > 0 ? list : null;
  }, 60_000);
}

const usageOf = async (who: TeamFixture) => expectOk(await call('GET', '/v1/files/storage-usage', { token: who.apiKey }));

describe('variant formats', () => {
  let imageId: string;
  /** a variant type that was kept in AVIF as well as WebP */
  let withAvif: string;

  beforeAll(async () => {
    imageId = await uploadImage(team, await smoothImage(1200, 900), 'sky.png');
    const variants = await variantsOf(team, imageId);
    expect(variants.filter((v) => v.format === 'webp').length).toBeGreaterThanOrEqual(4);
    const avif = variants.filter((v) => v.format === 'avif').map((v) => v.variantType);
    expect(avif).toContain('WEB_SIZE_IMAGE');
    withAvif = 'WEB_SIZE_IMAGE';
  }, 90_000);

  it('format=avif serves the AVIF: ftypavif at offset 4, image/avif, an .avif name, no Vary', async () => {
    const download = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=${withAvif}&format=avif`));
    expect(download).toMatchObject({ fileSimplyId: imageId, variantType: withAvif, expiresIn: 300 });
    // even a client that asks for WebP gets what the URL names
    const fetched = await fetchUrl(download.url, 'image/webp');
    expect(fetched.status).toBe(200);
    expect(isAvif(fetched.bytes)).toBe(true);
    expect(fetched.headers.get('content-type')).toBe('image/avif');
    expect(fetched.headers.get('content-disposition')).toMatch(/sky-web_size_image\.avif/);
    expect(fetched.headers.get('vary')).toBeNull();
    const metadata = await sharp(fetched.bytes).metadata();
    expect({ format: metadata.format, compression: metadata.compression, width: metadata.width, height: metadata.height }).toEqual({ format: 'heif', compression: 'av1', width: 1200, height: 900 });
  });

  it('format=webp serves the WebP even to a client that accepts AVIF', async () => {
    const download = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=${withAvif}&format=webp`));
    const fetched = await fetchUrl(download.url, 'image/avif,image/webp,*/*');
    expect(isWebp(fetched.bytes)).toBe(true);
    expect(fetched.headers.get('content-type')).toBe('image/webp');
    expect(fetched.headers.get('vary')).toBeNull();
  });

  it('without a format the storage URL answers by Accept: AVIF when image/avif is named, otherwise WebP; Vary: Accept', async () => {
    const download = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=${withAvif}`));
    const cases: [string | undefined, 'avif' | 'webp'][] = [
      ['image/avif,image/webp,image/apng,*/*;q=0.8', 'avif'],
      ['image/avif', 'avif'],
      ['image/webp,*/*', 'webp'],
      // a wildcard never selects AVIF: browsers without it send these too
      ['image/*', 'webp'],
      ['*/*', 'webp'],
      ['image/avif;q=0, image/webp', 'webp'],
      ['image/avif;q=0.5, image/webp', 'webp'],
      [undefined, 'webp'],
    ];
    for (const [accept, expected] of cases) {
      const fetched = await fetchUrl(download.url, accept);
      expect(fetched.status, String(accept)).toBe(200);
      expect(fetched.headers.get('content-type'), String(accept)).toBe(`image/${expected}`);
      expect(expected === 'avif' ? isAvif(fetched.bytes) : isWebp(fetched.bytes), String(accept)).toBe(true);
      expect(fetched.headers.get('content-disposition'), String(accept)).toMatch(new RegExp(`sky-web_size_image\\.${expected}`));
      expect(fetched.headers.get('vary'), String(accept)).toBe('Accept');
    }
    // the same through the batch route
    const [batch] = expectOk(await call('POST', '/v1/files/download-urls', { body: { fileSimplyIds: [imageId], variantType: withAvif } }));
    expect(isAvif((await fetchUrl(batch.url, 'image/avif,image/webp')).bytes)).toBe(true);
    const [chosen] = expectOk(await call('POST', '/v1/files/download-urls', { body: { fileSimplyIds: [imageId], variantType: withAvif, format: 'avif' } }));
    expect(isAvif((await fetchUrl(chosen.url)).bytes)).toBe(true);
  });

  it('a variant kept only in WebP answers WebP by Accept without Vary, and 404 to format=avif', async () => {
    const download = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=THUMBNAIL_IMAGE`));
    const fetched = await fetchUrl(download.url, 'image/avif,image/webp');
    expect(isWebp(fetched.bytes)).toBe(true);
    expect(fetched.headers.get('vary')).toBeNull();
    const missing = expectError(await call('GET', `/v1/files/${imageId}/download?variantType=THUMBNAIL_IMAGE&format=avif`), 404, 'NOT_FOUND');
    expect(missing.message).toMatch(/AVIF/);
  });

  it('the alternative is part of the signature: stripped or changed, the URL is refused', async () => {
    const { url } = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=${withAvif}`));
    const stripped = new URL(url);
    for (const name of ['alt', 'altName', 'altType']) stripped.searchParams.delete(name);
    expect((await fetchUrl(stripped.toString())).status).toBe(403);
    const changed = new URL(url);
    changed.searchParams.set('altType', 'text/html');
    expect((await fetchUrl(changed.toString(), 'text/html')).status).toBe(403);
    const partial = new URL(url);
    partial.searchParams.delete('altName');
    expect((await fetchUrl(partial.toString())).status).toBe(403);
  });

  it('an unknown format, or a format without a variant, is 400 VALIDATION_ERROR naming the field', async () => {
    for (const query of [`variantType=${withAvif}&format=jpeg`, `variantType=${withAvif}&format=AVIF`, `variantType=${withAvif}&format=`]) {
      const error = expectError(await call('GET', `/v1/files/${imageId}/download?${query}`), 400, 'VALIDATION_ERROR', query);
      expect(error.details?.map((d) => d.field)).toContain('format');
    }
    const alone = expectError(await call('GET', `/v1/files/${imageId}/download?format=webp`), 400, 'VALIDATION_ERROR');
    expect(alone.details?.map((d) => d.field)).toEqual(['format']);
    const batch = expectError(await call('POST', '/v1/files/download-urls', { body: { fileSimplyIds: [imageId], variantType: withAvif, format: 'gif' } }), 400, 'VALIDATION_ERROR');
    expect(batch.details?.map((d) => d.field)).toEqual(['format']);
    const gql = await server.graphql('query ($id: String!) { fileDownload(fileSimplyId: $id, variantType: "WEB_SIZE_IMAGE", format: "png") { url } }', { id: imageId }, { token: team.apiKey });
    expectGqlError(gql, 'VALIDATION_ERROR', 400);
    const ok = await server.graphql('query ($id: String!) { fileDownload(fileSimplyId: $id, variantType: "WEB_SIZE_IMAGE", format: "avif") { url variantType } }', { id: imageId }, { token: team.apiKey });
    expect(isAvif((await fetchUrl((ok.data as any).fileDownload.url)).bytes)).toBe(true);
  });
});

describe('variants count against the storage limit', () => {
  it('usage grows by the variant bytes; an upload or version that fits only without them is refused', async () => {
    const bytes = await smoothImage(1000, 750);
    const id = await uploadImage(counted, bytes, 'counted.png');
    const variants = await variantsOf(counted, id);
    const variantBytes = variants.reduce((sum, v) => sum + Number(v.fileSizeBytes), 0);
    expect(variantBytes).toBeGreaterThan(0);
    const usage = await until('usage with the variants', async () => {
      const u = await usageOf(counted);
      return u.variantBytes === variantBytes ? u : null;
    });
    expect(usage).toMatchObject({ versionBytes: bytes.length, variantBytes, usedBytes: bytes.length + variantBytes });

    const next = Buffer.from('a small text file\n');
    // room for the versions and the next file, not for the variants as well
    await server.app.services.prisma.teamStorageQuota.create({ data: { teamId: counted.teamId, quotaBytes: BigInt(bytes.length + next.length + variantBytes - 1) } });
    const refused = expectError(await createIntent(server, counted.apiKey, next, { filename: 'next.txt' }), 409, 'STORAGE_LIMIT_EXCEEDED');
    expect(refused.message).toContain(String(bytes.length + variantBytes));
    expectError(await createIntent(server, counted.apiKey, bytes, { filename: 'again.png', contentType: 'image/png', isNewVersionOfFileSimplyId: id }), 409, 'STORAGE_LIMIT_EXCEEDED');
    expect(await usageOf(counted)).toMatchObject({ availableBytes: next.length - 1 });

    // one byte more and it fits
    await server.app.services.prisma.teamStorageQuota.update({ where: { teamId: counted.teamId }, data: { quotaBytes: BigInt(bytes.length + next.length + variantBytes) } });
    const done = await uploadFile(server, counted.apiKey, next, { filename: 'next.txt' });
    expect(done.status, done.rejectionMessage).toBe('COMPLETED');
    expect(await usageOf(counted)).toMatchObject({ usedBytes: bytes.length + variantBytes + next.length, availableBytes: 0 });
  }, 90_000);

  it('variants are stored even when they take the team past its limit; the next upload is refused', async () => {
    const bytes = await smoothImage(1000, 750);
    // exactly room for the image itself
    await server.app.services.prisma.teamStorageQuota.create({ data: { teamId: overflow.teamId, quotaBytes: BigInt(bytes.length) } });
    const id = await uploadImage(overflow, bytes, 'full.png');
    const variants = await variantsOf(overflow, id);
    const variantBytes = variants.reduce((sum, v) => sum + Number(v.fileSizeBytes), 0);
    const usage = await until('usage with the variants', async () => {
      const u = await usageOf(overflow);
      return u.variantBytes === variantBytes ? u : null;
    });
    expect(usage).toMatchObject({ usedBytes: bytes.length + variantBytes, quotaBytes: bytes.length, availableBytes: 0 });
    expect(usage.usedBytes).toBeGreaterThan(usage.quotaBytes);
    // the thumbnail is there
    const file = expectOk(await call('GET', `/v1/files/${id}`, { token: overflow.apiKey }));
    expect((await fetchUrl(file.thumbnailUrl)).status).toBe(200);
    expectError(await createIntent(server, overflow.apiKey, Buffer.from('x'), { filename: 'x.txt' }), 409, 'STORAGE_LIMIT_EXCEEDED');
  }, 90_000);
});
