// The hosted booking flow of a link in the machine's headless Chromium: the page signs a
// constituent in with the code mailed to them, lists the free times of a day from the link's slot
// grid, and books one; the booking is a record of the mapped collection, made as that constituent.
// Internal-team links have no page.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { codeIn } from '../constituent-auth/constituent-fixtures.ts';
import { readRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { monday, spacesBed, type SpacesBed } from './space-bookings-fixtures.ts';

let server: TestServer;
let bed: SpacesBed;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  bed = await spacesBed(server);
  // people sign in with the email field of a PERSON collection
  await server.app.services.prisma.dataCollection.update({ where: { id: bed.people.internalId }, data: { archetype: 'PERSON' } });
  server.app.services.schemas.invalidate(bed.team.teamId);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the hosted booking flow', () => {
  it('signs a constituent in and books a free time through the link', async () => {
    const page = await (await browser.createBrowserContext()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const response = await page.goto(`${server.baseUrl}/book/${bed.link.bookingLinkSimplyId}#token=${encodeURIComponent(bed.link.publicAccessToken)}`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.type('#email', 'pat@example.test');
    await page.click('#signin button');
    await page.waitForSelector('#code:not([hidden])');
    const mail = await until('the sign-in code mail', () => server.app.services.prisma.mailMessage.findFirst({ where: { teamId: bed.team.teamId, source: 'CONSTITUENT_AUTHENTICATION' }, orderBy: { id: 'desc' } }));
    await page.type('#code-input', codeIn(mail!.textBody));
    await page.click('#code button');
    await page.waitForSelector('#pick:not([hidden])');
    await page.$eval('#date', (input, day) => {
      (input as HTMLInputElement).value = day;
      input.dispatchEvent(new Event('change'));
    }, monday(2).toString());
    await page.waitForSelector('#slots .slot');
    const label = await page.$eval('#slots .slot', (b) => b.textContent);
    // shown in the channel's zone whatever the browser's (the opening time is 08:00 Berlin time)
    expect(label).toMatch(/^08:00\D*09:00\D* · Room 1$/);
    await page.click('#slots .slot');
    await page.type('#title', 'Booked in the browser');
    await page.click('#book');
    await page.waitForSelector('#done:not([hidden])');
    const id = await page.$eval('#done-id', (e) => e.textContent);
    const record = await readRecord(server, bed.team.apiKey, id!);
    expect(record.fields[bed.bookings.fields.title!]).toBe('Booked in the browser');
    expect(record.fields[bed.bookings.fields.requester!]).toBe(bed.personId);
    expect(await page.$eval('#done-status', (e) => e.textContent)).toContain('awaits approval');
    expect(problems).toEqual([]);
  }, 60_000);

  it('has no page for an unknown link', async () => {
    const answer = await server.request('GET', '/book/blk-ZZZZ-ZZZZ-ZZZZ');
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('Booking link not found');
  });
});
