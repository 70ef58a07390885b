// The public resolve path and what it records (docs/api/action-tags.md "Resolving", "Scans",
// "Analytics", "QR code", "Retention"), over real HTTP: 302 for an ACTIVE URL tag, the LINK_PAGE
// page (no script, strict CSP), 404/410 pages logged DISABLED; browser, bot and preview user agents
// classified; one visitor's QR, NFC and link projections counted once; places from the offline
// database; no client address in any table after 1,000 scans; analytics and their CSV from the
// daily rows; the QR image decoding back to publicUrl?source=QR.
import jsqr from 'jsqr';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { applyScanRetention } from '../../src/modules/action-tags/action-tag-retention.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

// jsqr is a CommonJS bundle: its function is the module or its `default`, depending on the loader
const jsQR = ((jsqr as unknown as { default?: unknown }).default ?? jsqr) as typeof jsqr.default;
const TAGS = '/v1/action-tags';
const CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const FACEBOOK = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';
// a documentation-range address would have no place; this one is London in the DB-IP data
const LONDON = '81.2.69.142';

describe('resolving action tags', () => {
  const { server, teams: [team] } = useServer({ teams: 1, env: { TRUST_PROXY: true, ACTION_TAGS_SCAN_FLUSH_MS: 60_000 } });
  // behind a TLS-terminating proxy (TRUST_PROXY), so X-Forwarded-For names the scanner
  const origin = () => `http://127.0.0.1:${server.app.port}`;
  const PROXY = { 'x-forwarded-proto': 'https' };
  const api = async (method: string, path: string, body?: unknown, token = team.apiKey) => {
    const r = await fetch(`${origin()}${path}`, {
      method,
      headers: { ...PROXY, authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let parsed: any = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: r.status, headers: r.headers, text, body: parsed };
  };
  const call = (method: string, path: string, body?: unknown) => api(method, path, body);
  const flush = () => server.app.services.actionTagScans!.flush();
  const visit = (path: string, ua: string | undefined, extra: { method?: string; from?: string; referer?: string } = {}) =>
    fetch(`${origin()}${path}`, {
      method: extra.method ?? 'GET',
      redirect: 'manual',
      headers: { ...PROXY, ...(ua ? { 'user-agent': ua } : { 'user-agent': '' }), 'x-forwarded-for': extra.from ?? '203.0.113.9', ...(extra.referer ? { referer: extra.referer } : {}) },
    });
  const tagPath = (tag: { publicUrl: string }) => new URL(tag.publicUrl).pathname;
  const scans = async (id: string) => expectOk(await call('GET', `${TAGS}/${id}/scans`));
  let url: any;
  let page: any;
  beforeAll(async () => {
    url = expectOk(await call('POST', TAGS, { name: '=HYPERLINK("x")', status: 'ACTIVE', actionUrl: 'https://example.org/landing?campaign=a' }), 201);
    page = expectOk(
      await call('POST', TAGS, {
        name: 'Card',
        status: 'ACTIVE',
        linkPageSettings: { title: 'Tom & Jerry’s "fair"', theme: 'DARK', callsToAction: [{ label: 'Donate', url: 'https://example.org/donate?a=1&b=2' }] },
      }),
      201,
    );
  });

  it('redirects an ACTIVE URL tag, serves a LINK_PAGE page, and answers 404/410 pages otherwise', async () => {
    const r = await visit(`${tagPath(url)}?source=QR`, CHROME);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('https://example.org/landing?campaign=a');
    expect(r.headers.get('cache-control')).toBe('no-store');

    const p = await visit(`${tagPath(page)}?source=NFC`, CHROME);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = p.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(policy).not.toContain('unsafe');
    const html = await p.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<h1>Tom &amp; Jerry’s &quot;fair&quot;</h1>');
    expect(html).toContain('<a href="https://example.org/donate?a=1&amp;b=2" rel="noopener noreferrer">Donate</a>');
    expect(Buffer.byteLength(html)).toBeLessThan(2048);

    const off = expectOk(await call('POST', TAGS, { name: 'Off', status: 'ACTIVE', actionUrl: 'https://example.org/off' }), 201);
    expect((await visit(tagPath(off), CHROME)).status).toBe(302);
    expectOk(await call('PUT', `${TAGS}/${off.id}`, { status: 'INACTIVE' }));
    const gone = await visit(tagPath(off), CHROME);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('location')).toBeNull();
    expect(await gone.text()).toContain('switched off');
    const draft = expectOk(await call('POST', TAGS, { name: 'Draft', actionUrl: 'https://example.org/d' }), 201);
    expect((await visit(tagPath(draft), CHROME)).status).toBe(404);
    expect((await visit('/a/atag-2222-3333-4444', CHROME)).status).toBe(404);
    expect((await visit('/a/atag-2222-3333-4444/extra', CHROME)).status).toBe(404);
    await flush();
    const offScans = await scans(off.id);
    expect(offScans.map((s: any) => [s.resolveStatus, s.resolvedDestination])).toEqual([
      ['DISABLED', null],
      ['RESOLVED', 'https://example.org/off'],
    ]);
    expect((await scans(draft.id))[0]).toMatchObject({ resolveStatus: 'DISABLED', countedAsInteraction: false });
  });

  it('classifies browsers, bots and link previews, strips referrer queries and counts one visitor once', async () => {
    const tag = expectOk(await call('POST', TAGS, { name: 'Classes', status: 'ACTIVE', actionUrl: 'https://example.org/c' }), 201);
    const path = tagPath(tag);
    const from = '198.51.100.77';
    await visit(`${path}?source=QR`, CHROME, { from, referer: 'https://news.example/story?id=42&utm=x#top' });
    await visit(`${path}?source=NFC`, CHROME, { from });
    await visit(`${path}?source=LINK`, CHROME, { from });
    await visit(`${path}?source=bogus`, CHROME, { from: '192.0.2.200' });
    await visit(path, BOT);
    await visit(path, SLACK);
    await visit(path, FACEBOOK);
    await visit(path, undefined);
    const head = await visit(path, CHROME, { method: 'HEAD' });
    expect(head.status).toBe(302);
    await flush();
    const list = (await scans(tag.id)).reverse();
    expect(list.map((s: any) => [s.interactionSource, s.trafficClass, s.countedAsInteraction])).toEqual([
      ['QR', 'HUMAN', true],
      ['NFC', 'HUMAN', false],
      ['LINK', 'HUMAN', false],
      ['UNKNOWN', 'HUMAN', true],
      ['UNKNOWN', 'BOT', false],
      ['UNKNOWN', 'LINK_PREVIEW', false],
      ['UNKNOWN', 'LINK_PREVIEW', false],
      ['UNKNOWN', 'BOT', false],
      ['UNKNOWN', 'LINK_PREVIEW', false],
    ]);
    expect(list[0].referrer).toBe('https://news.example/story');
    expect(list[0].userAgent).toBe(CHROME);

    const analytics = expectOk(await call('GET', `${TAGS}/${tag.id}/analytics`));
    expect(analytics).toMatchObject({ trafficClasses: ['HUMAN'], totals: { scans: 4, interactions: 2, disabledScans: 0 }, sources: { QR: 1, NFC: 1, LINK: 1, UNKNOWN: 1 }, traffic: { HUMAN: 4, BOT: 2, LINK_PREVIEW: 3 } });
    const all = expectOk(await call('GET', `${TAGS}/${tag.id}/analytics?trafficClass=ALL`));
    expect(all.totals.scans).toBe(9);
    expect(expectOk(await call('GET', `${TAGS}/${tag.id}/analytics?trafficClass=BOT`)).sources).toEqual({ QR: 0, NFC: 0, LINK: 0, UNKNOWN: 2 });
    expectError(await call('GET', `${TAGS}/analytics?trafficClass=ROBOTS`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${TAGS}/analytics?from=2026-05-02&to=2026-05-01`), 400, 'VALIDATION_ERROR');
  });

  it('records an approximate place and never a client address, in 1,000 scans', async () => {
    const tag = expectOk(await call('POST', TAGS, { name: 'Crowd', status: 'ACTIVE', actionUrl: 'https://example.org/crowd' }), 201);
    const path = `${tagPath(tag)}?source=QR`;
    const addresses = [LONDON, '8.8.8.8', '2a00:1450:4001:81b::200e'];
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => visit(path, `${CHROME} n${i + j}`, { from: addresses[(i + j) % 3] }).then((r) => r.body?.cancel())));
    }
    await flush();
    const list = await scans(tag.id);
    expect(list).toHaveLength(100);
    const london = list.find((s: any) => s.city === 'London');
    expect(london).toMatchObject({ country: 'GB', region: 'England' });
    expect(list.some((s: any) => s.country === 'US')).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/81\.2\.69|8\.8\.8\.8|2a00:1450/);
    expect((await call('GET', `${TAGS}/${tag.id}/scans?limit=500&offset=500`)).body.meta.pagination.total).toBe(1000);
    expectError(await call('GET', `${TAGS}/${tag.id}/scans?limit=501`), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `${TAGS}/${tag.id}`)).lifetimeScans).toBe(1000);

    // every table of the database, as text
    const { pool } = server.app.services;
    const tables = (await pool.query<{ t: string }>(`SELECT quote_ident(table_name) AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).rows;
    const hits: string[] = [];
    for (const { t } of tables) {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${t} x WHERE x::text LIKE '%81.2.69.142%' OR x::text LIKE '%2a00:1450:4001:81b%' OR x::text LIKE '%81.2.69.0%'`);
      if (rows[0].n > 0) hits.push(t);
    }
    expect(hits).toEqual([]);
    // and the write-ahead log those writes went through (the newest segments)
    const segments = (await pool.query<{ name: string }>(`SELECT name FROM pg_ls_waldir() ORDER BY modification DESC LIMIT 2`)).rows;
    expect(segments.length).toBeGreaterThan(0);
    for (const { name } of segments) {
      const { rows } = await pool.query<{ hit: boolean }>(`SELECT position(convert_to('81.2.69.142', 'UTF8') IN pg_read_binary_file('pg_wal/' || $1::text)) > 0 AS hit`, [name]);
      expect(rows[0]!.hit, name).toBe(false);
    }

    const analytics = expectOk(await call('GET', `${TAGS}/analytics?trafficClass=ALL`));
    expect(analytics.geography.find((g: any) => g.city === 'London')?.scans).toBeGreaterThan(300);
    expect(analytics.topTags[0]).toMatchObject({ simplyActionTagSimplyId: tag.id, scans: 1000 });
    expect(analytics.daily.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10) });
    expect(analytics.recentActivity.map((r: any) => r.simplyActionTagSimplyId)).toContain(tag.id);

    const csv = await api('GET', `${TAGS}/analytics/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')[0]).toBe('record_type,simplyActionTagSimplyId,name,scannedAt,interactionSource,trafficClass,resolveStatus,resolvedDestination,city,region,country,referrer,lifetimeScans,lastScannedAt');
    expect(csv.text).toContain(`TAG,${tag.id},Crowd,`);
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv.text).not.toMatch(/81\.2\.69|8\.8\.8\.8|Mozilla/);
  });

  it('masks user agents after seven days, clears hashes after 30 and deletes detail past retention, keeping aggregates', async () => {
    const t = await createTeam(server);
    await setActionTagPlan(server.app.services, t.teamSimplyId, { preset: 'paid-500' }, null);
    const c = (method: string, path: string, body?: unknown) => api(method, path, body, t.apiKey);
    const tag = expectOk(await c('POST', TAGS, { name: 'Old', status: 'ACTIVE', actionUrl: 'https://example.org/old' }), 201);
    await visit(tagPath(tag), CHROME);
    await flush();
    const { prisma, pool, config } = server.app.services;
    const row = () => prisma.actionTagScan.findFirstOrThrow({ where: { actionTag: { simplyId: tag.id } } });
    expect((await row()).abuseHash).toMatch(/^[\w-]{32}$/);
    const later = (days: number) => new Date(Date.now() + days * 86_400_000);
    await applyScanRetention(pool, config.ACTION_TAGS_DEFAULT_PLAN, later(8));
    expect(await row()).toMatchObject({ userAgent: null, abuseHash: expect.any(String) });
    await applyScanRetention(pool, config.ACTION_TAGS_DEFAULT_PLAN, later(31));
    expect(await row()).toMatchObject({ abuseHash: null, resolveStatus: 'RESOLVED' });
    // paid plans keep the detail 24 months
    await applyScanRetention(pool, config.ACTION_TAGS_DEFAULT_PLAN, later(700));
    expect(await row()).toMatchObject({ abuseHash: null });
    await applyScanRetention(pool, config.ACTION_TAGS_DEFAULT_PLAN, later(731));
    expect(await prisma.actionTagScan.count({ where: { actionTag: { simplyId: tag.id } } })).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(expectOk(await c('GET', `${TAGS}/${tag.id}/analytics?from=${today}&to=${today}`)).totals.scans).toBe(1);
    expect(expectOk(await c('GET', `${TAGS}/${tag.id}`)).lifetimeScans).toBe(1);
  });

  it('draws a QR code that decodes back to publicUrl?source=QR, in SVG and PNG with a logo', async () => {
    const svg = await api('GET', `${TAGS}/${url.id}/qr-code`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    const decode = async (image: Buffer) => {
      const { data, info } = await sharp(image).resize(600).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
    };
    expect(await decode(Buffer.from(svg.text))).toBe(`${url.publicUrl}?source=QR`);

    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#d1242f' } }).png().toBuffer();
    expectOk(await call('PUT', `${TAGS}/${url.id}`, { qrCodeSettings: { foregroundColor: '#1f2328', backgroundColor: '#fffbe6', errorCorrection: 'L', logoImageBase64: logo.toString('base64') } }));
    expect(expectOk(await call('GET', `${TAGS}/${url.id}`)).qrCodeSettings).toEqual({ foregroundColor: '#1f2328', backgroundColor: '#fffbe6', errorCorrection: 'L', hasLogo: true });
    const gql = await api('POST', '/graphql', { query: `query($id: String!) { actionTagQrCode(simplyActionTagSimplyId: $id, format: "png", size: 600) { contentType base64 encodedUrl } }`, variables: { id: url.id } });
    expect(gql.body.errors).toBeUndefined();
    const png = gql.body.data.actionTagQrCode;
    expect(png.contentType).toBe('image/png');
    expect(await decode(Buffer.from(png.base64, 'base64'))).toBe(`${url.publicUrl}?source=QR`);
    const withLogo = await api('GET', `${TAGS}/${url.id}/qr-code?format=svg`);
    expect(withLogo.text).toContain('data:image/png;base64,');
    expect(await decode(Buffer.from(withLogo.text))).toBe(`${url.publicUrl}?source=QR`);
    expectError(await call('GET', `${TAGS}/${url.id}/qr-code?format=gif`), 400, 'VALIDATION_ERROR');
  });
});

describe('the address hash of a burst of scans', () => {
  it('is the keyed hash of the truncated address, the same before and after its memory is let go', async () => {
    const { abuseHash, abuseHasher } = await import('../../src/modules/action-tags/scan-privacy.ts');
    const key = Buffer.alloc(32, 7);
    const hashOf = abuseHasher(key, 50);
    expect(hashOf('203.0.113.9')).toBe(abuseHash(key, '203.0.113.9'));
    // one /24, one hash; another network, another
    expect(hashOf('203.0.113.200')).toBe(hashOf('203.0.113.9'));
    expect(hashOf('198.51.100.1')).not.toBe(hashOf('203.0.113.9'));
    expect(hashOf('203.0.113.9')).not.toBe(abuseHash(Buffer.alloc(32, 8), '203.0.113.9'));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(hashOf('203.0.113.9')).toBe(abuseHash(key, '203.0.113.9'));
  });
});
