// An external-access link's form in the machine's Chromium (docs/api/data-wizards.md "The external
// form"): a person outside the team opens the link, sees every step with the record's current values
// of the fields the wizard collects, changes them and submits; the record changes and the run is
// recorded as the link's, and the wizard's success outcome automation runs on it (the server runs
// its job workers, on a database of the file's own). A value that does not fit shows the form again naming the field; revoked,
// expired and used-up links show the one 404 page. The page runs no script and breaks no rule of its
// policy. Screenshots are saved under the system's temp folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { until, updateFields } from '../support/automation-fixtures.ts';
import { createApiKey, createRole } from '../support/fixtures.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { createWizard, requiredLink, updateTask, validateTask } from '../support/wizard-fixtures.ts';

const { server, teams: [team] } = useServer({ teams: 1, ownDatabase: 'wizard_form', runJobs: true, env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: 100_000 } });
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wizard-form-'));

let browser: Browser;
let people: CollectionFixture;
let wizard: string;
let makerKey: string;

/** what the browser reported about the page: policy violations and failed requests */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('requestfailed', (r) => problems.push(`failed ${r.url()}`));
  return problems;
}

async function newLink(record: string, body: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await server.request('POST', `/v1/data-wizards/${wizard}/external-access-links`, { token: makerKey, body: { dataRecordSimplyId: record, ...body } }), 201);
}

async function setValue(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(selector, (el, v) => {
    (el as HTMLInputElement).value = v as string;
  }, value);
}

const input = (field: string, part?: string) => `[name="f.${field}${part ? `.${part}` : ''}"]`;

beforeAll(async () => {
  people = await createCollection(server, team, {
    name: 'People',
    fields: {
      first_name: { dataType: 'PLAIN_TEXT', title: 'First name' },
      email: { dataType: 'EMAIL_ADDRESS', title: 'Email' },
      birthday: { dataType: 'DATE', title: 'Birthday' },
      newsletter: { dataType: 'BOOLEAN', title: 'Newsletter' },
      address: { dataType: 'PHYSICAL_ADDRESS', title: 'Address' },
      donation: { dataType: 'MONEY', title: 'Donation', config: { currency: 'EUR' } },
      callback_at: { dataType: 'DATE_TIME', title: 'Call back at' },
      internal: { dataType: 'PLAIN_TEXT', title: 'Internal' },
      follow_up: { dataType: 'PLAIN_TEXT', title: 'Follow-up' },
    },
  });
  const f = people.fields;
  wizard = (await createWizard(server, team.apiKey, {
    name: 'Your details',
    dataCollectionSimplyId: people.id,
    steps: [
      { title: 'Who you are', tasks: [updateTask('Name and email', requiredLink(f.first_name!), f.email!, f.birthday!)] },
      { title: 'Where and how', tasks: [updateTask('Address', f.address!, f.newsletter!, f.donation!, f.callback_at!), validateTask('Check', f.first_name!), { type: 'DISPLAY', title: 'Thank you', config: { body: 'We never share your data.' } }] },
    ],
  })).dataWizardSimplyId;
  // the success outcome: what the team does after a completed run
  expectOk(
    await server.request('POST', '/v1/automations', {
      token: team.apiKey,
      body: { name: 'Follow up', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard }, actions: [updateFields({ [f.follow_up!]: 'call back' })] },
    }),
    201,
  );
  const role = await createRole(server, team, { name: 'Link maker', dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  makerKey = (await createApiKey(server, team, { name: 'link maker', teamRoleSimplyId: role, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] })).key;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the external form in Chromium', () => {
  it('opens pre-filled, is submitted, and changes the record as a run of the link', async () => {
    const f = people.fields;
    const record = (await createRecord(server, team.apiKey, people.id, {
      [f.first_name!]: 'Ada',
      [f.email!]: 'ada@example.com',
      [f.newsletter!]: true,
      [f.address!]: { line1: '12 Analytical Row', city: 'London', countryCode: 'GB' },
      [f.callback_at!]: '2026-12-24T09:30:00Z',
      [f.internal!]: 'only for the team',
    })).id;
    const link = await newLink(record, { label: 'Ada' });
    const page = await browser.newPage();
    const problems = watch(page);
    const opened = await page.goto(link.url, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Your details');
    expect(await page.$$eval('legend', (ls) => ls.map((l) => l.textContent))).toEqual(expect.arrayContaining(['Step 1: Who you are', 'Step 2: Where and how']));
    expect(await page.$eval(input(f.first_name!), (el) => (el as HTMLInputElement).value)).toBe('Ada');
    expect(await page.$eval(input(f.email!), (el) => (el as HTMLInputElement).type)).toBe('email');
    expect(await page.$eval(input(f.birthday!), (el) => (el as HTMLInputElement).type)).toBe('date');
    expect(await page.$eval(input(f.newsletter!), (el) => (el as HTMLSelectElement).value)).toBe('true');
    expect(await page.$eval(input(f.address!, 'city'), (el) => (el as HTMLInputElement).value)).toBe('London');
    expect(await page.$eval(input(f.callback_at!), (el) => [(el as HTMLInputElement).type, (el as HTMLInputElement).value])).toEqual(['datetime-local', '2026-12-24T09:30']);
    expect(await page.content()).not.toContain('only for the team');
    expect(await page.$(input(f.internal!))).toBeNull();
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await page.screenshot({ path: path.join(shots, 'form.png'), fullPage: true });

    await setValue(page, input(f.first_name!), '');
    await page.type(input(f.first_name!), 'Augusta');
    await setValue(page, input(f.email!), '');
    await page.type(input(f.email!), 'augusta@example.com');
    await setValue(page, input(f.birthday!), '1815-12-10');
    await page.select(input(f.newsletter!), 'false');
    await setValue(page, input(f.address!, 'line1'), '');
    await page.type(input(f.address!, 'line1'), '1 St James Square');
    await page.type(input(f.donation!), '19.90');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit')]);
    expect(await page.$eval('#done', (p) => p.textContent)).toContain('saved');
    await page.screenshot({ path: path.join(shots, 'done.png'), fullPage: true });
    expect(problems).toEqual([]);

    const fields = (await readRecord(server, team.apiKey, record)).fields;
    expect(fields).toMatchObject({
      [f.first_name!]: 'Augusta',
      [f.email!]: 'augusta@example.com',
      [f.birthday!]: '1815-12-10',
      [f.newsletter!]: false,
      [f.address!]: expect.objectContaining({ line1: '1 St James Square', city: 'London', countryCode: 'GB' }),
      [f.donation!]: '19.90',
      [f.callback_at!]: '2026-12-24T09:30:00.000Z',
      [f.internal!]: 'only for the team',
    });
    // the outcome automation runs on the record, as after execute
    await until('the success outcome ran', async () => ((await readRecord(server, team.apiKey, record)).fields[f.follow_up!] === 'call back' ? true : undefined));
    const runs = expectOk(await server.request('GET', `/v1/data-wizards/${wizard}/instances?dataRecordSimplyId=${record}`, { token: team.apiKey }));
    expect(runs).toEqual([expect.objectContaining({ status: 'COMPLETED', actorKind: 'PUBLIC_LINK', actorId: link.id })]);
    const listed = expectOk(await server.request('GET', `/v1/data-wizards/${wizard}/external-access-links`, { token: team.apiKey })).find((l: any) => l.id === link.id);
    expect(listed.useCount).toBe(1);
    await page.close();
  });

  it('shows the form again naming the field when a value does not fit; nothing changes', async () => {
    const f = people.fields;
    const record = (await createRecord(server, team.apiKey, people.id, { [f.first_name!]: 'Kept' })).id;
    const link = await newLink(record);
    const page = await browser.newPage();
    const problems = watch(page);
    await page.goto(link.url, { waitUntil: 'load' });
    await page.type(input(f.email!), 'not-an-email');
    const [answer] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit')]);
    expect(answer?.status()).toBe(422);
    expect(await page.$eval('#errors', (e) => e.textContent)).toContain('Email');
    expect(await page.$(`#e-${f.email}`)).not.toBeNull();
    expect(await page.$eval(input(f.email!), (el) => (el as HTMLInputElement).value)).toBe('not-an-email');
    await page.screenshot({ path: path.join(shots, 'errors.png'), fullPage: true });
    // the browser reports the 422 of the document itself; nothing else
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
    expect((await readRecord(server, team.apiKey, record)).fields[f.email!]).toBeUndefined();

    // corrected on the page it came back with, it goes through
    await setValue(page, input(f.email!), 'kept@example.com');
    const [done] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit')]);
    expect(done?.status()).toBe(200);
    expect((await readRecord(server, team.apiKey, record)).fields[f.email!]).toBe('kept@example.com');
    await page.close();
  });

  it('revoked, expired and used-up links show the 404 page', async () => {
    const record = (await createRecord(server, team.apiKey, people.id, { [people.fields.first_name!]: 'Nobody' })).id;
    const revoked = await newLink(record);
    expectOk(await server.request('DELETE', `/v1/data-wizards/${wizard}/external-access-links/${revoked.id}`, { token: makerKey }));
    const expired = await newLink(record);
    const usedUp = await newLink(record, { maxUses: 1 });
    const { prisma } = server.app.services;
    await prisma.dataWizardExternalLink.updateMany({ where: { teamId: team.teamId, simplyId: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const page = await browser.newPage();
    // the one-use link is used in the browser first, then opened again
    await page.goto(usedUp.url, { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit')]);
    expect(await page.$('#done')).not.toBeNull();
    for (const [what, url] of [['revoked', revoked.url], ['expired', expired.url], ['used up', usedUp.url]]) {
      const response = await page.goto(url, { waitUntil: 'load' });
      expect(response?.status(), what).toBe(404);
      expect(await page.$eval('h1', (h) => h.textContent), what).toBe('Form not available');
      expect(await page.$('form'), what).toBeNull();
    }
    await page.screenshot({ path: path.join(shots, 'not-available.png') });
    await page.close();
  });
});
