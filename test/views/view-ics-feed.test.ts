// The calendar feed of a CALENDAR view (docs/api/data-views.md "The calendar feed"): fetched by its
// ICS_FEED token without a credential and parsed back with ical.js: one event per record and date
// link, stable UIDs, all-day (VALUE=DATE, DTEND the day after the last) against timed (UTC) events,
// the view's saved filter and visible fields only, DTSTAMP from the record; the ETag and 304,
// and the feed refused once the token is revoked or the view unpublished.
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { createEvent, createToken, pathOf, publish, publishedView, startSharingBed, type SharingBed } from './view-sharing-fixtures.ts';

let bed: SharingBed;
let view: string;
let feedPath: string;
const records: Record<string, { id: string; updatedAt: string }> = {};

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: ICAL.Time;
  end: ICAL.Time | null;
  stamp: ICAL.Time;
}

function parse(text: string): { calendar: ICAL.Component; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((v) => ({
    uid: v.getFirstPropertyValue('uid') as string,
    summary: v.getFirstPropertyValue('summary') as string,
    description: (v.getFirstPropertyValue('description') as string | null) ?? null,
    start: v.getFirstPropertyValue('dtstart') as ICAL.Time,
    end: (v.getFirstPropertyValue('dtend') as ICAL.Time | null) ?? null,
    stamp: v.getFirstPropertyValue('dtstamp') as ICAL.Time,
  }));
  return { calendar, events };
}

const feed = (headers: Record<string, string> = {}, method = 'GET') => bed.server.request(method, feedPath, { headers });
const host = () => new URL(bed.server.baseUrl).hostname;

beforeAll(async () => {
  bed = await startSharingBed();
  const f = bed.events.fields;
  view = await publishedView(bed, { type: 'CALENDAR', name: 'Events & more', columns: ['title', 'seats'], filters: [{ field: f.seats, operator: 'gte', value: 1 }] });
  // a second kind of entry: whole days, from `day` to `until`
  expectOk(await bed.call('POST', `/v1/data-views/${view}/calendar-date-info-field-links`, { dataFieldSimplyId: f.day, endDataFieldSimplyId: f.until, label: { en: 'Festival' } }), 201);
  const { name, description, internalName, enumDataViewTypeId, isPublished, config } = expectOk(await bed.call('GET', `/v1/data-views/${view}/admin-detail`));
  const calendar = { ...config, calendar: { timeZone: 'Europe/Berlin' } };
  expectOk(await bed.call('PUT', `/v1/data-views/${view}/admin-detail`, { name, description, internalName, enumDataViewTypeId, isPublished, config: calendar }));
  records.opening = await createEvent(bed, { title: 'Opening', starts: '2026-03-01T09:00:00Z', ends: '2026-03-01T10:30:00Z', day: '2026-03-01', until: '2026-03-03', seats: 10, secret: 'do not publish' });
  records.workshop = await createEvent(bed, { title: 'Workshop; <b>&, "quoted"', starts: '2026-03-02T14:30:00+01:00', seats: 5 });
  records.backwards = await createEvent(bed, { title: 'Backwards', starts: '2026-03-05T10:00:00Z', ends: '2026-03-05T09:00:00Z', day: '2026-03-07', until: '2026-03-06', seats: 2 });
  records.cancelled = await createEvent(bed, { title: 'Cancelled', starts: '2026-03-04T10:00:00Z', seats: 0 });
  records.undated = await createEvent(bed, { title: 'Undated', seats: 3 });
  feedPath = pathOf((await createToken(bed, view, 'ICS_FEED')).url);
});
afterAll(() => bed?.server.close());

describe('the calendar feed', () => {
  it('is an RFC 5545 calendar: one event per record and date link, the saved filter applied', async () => {
    const res = await feed();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(res.text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const { calendar, events } = parse(res.text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//svc//data views//EN');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Events & more');
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/Berlin');
    // Opening (2 links), Workshop (start only), Backwards (2 links): 5; Cancelled is filtered out, Undated has no date
    expect(events.map((e) => e.summary).sort()).toEqual(['Backwards · Festival', 'Backwards · Session', 'Opening · Festival', 'Opening · Session', 'Workshop; <b>&, "quoted" · Session']);
    expect(res.text).not.toContain('Cancelled');
    expect(res.text).not.toContain('Undated');
    // UIDs: record, date field, view, at the platform's host; unique and the same on every read
    const f = bed.events.fields;
    const uids = events.map((e) => e.uid);
    expect(new Set(uids).size).toBe(uids.length);
    expect(uids).toContain(`${records.opening!.id}.${f.starts}.${view}@${host()}`);
    expect(uids).toContain(`${records.opening!.id}.${f.day}.${view}@${host()}`);
    expect(parse((await feed()).text).events.map((e) => e.uid)).toEqual(uids);
  });

  it('writes DATE_TIME values as UTC instants and DATE values as all-day events ending the day after', async () => {
    const { events } = parse((await feed()).text);
    const bySummary = new Map(events.map((e) => [e.summary, e]));
    const session = bySummary.get('Opening · Session')!;
    expect(session.start.isDate).toBe(false);
    expect(session.start.zone?.tzid).toBe('UTC');
    expect(session.start.toJSDate().toISOString()).toBe('2026-03-01T09:00:00.000Z');
    expect(session.end!.toJSDate().toISOString()).toBe('2026-03-01T10:30:00.000Z');
    // an offset in the input is the same instant in UTC; no end: a point in time
    const workshop = bySummary.get('Workshop; <b>&, "quoted" · Session')!;
    expect(workshop.start.toJSDate().toISOString()).toBe('2026-03-02T13:30:00.000Z');
    expect(workshop.end).toBeNull();
    const festival = bySummary.get('Opening · Festival')!;
    expect(festival.start.isDate).toBe(true);
    expect(festival.start.toString()).toBe('2026-03-01');
    expect(festival.end!.isDate).toBe(true);
    expect(festival.end!.toString()).toBe('2026-03-04');
    // an end before the start is left out
    expect(bySummary.get('Backwards · Session')!.end).toBeNull();
    expect(bySummary.get('Backwards · Festival')!.end).toBeNull();
    expect(bySummary.get('Backwards · Festival')!.start.toString()).toBe('2026-03-07');
    const raw = (await feed()).text;
    expect(raw).toContain('DTSTART;VALUE=DATE:20260301');
    expect(raw).toContain('DTEND;VALUE=DATE:20260304');
    expect(raw).toContain('DTSTART:20260301T090000Z');
  });

  it('carries the view\u2019s visible fields only, escaped as RFC 5545 text; DTSTAMP is the record\u2019s updatedAt', async () => {
    const res = await feed();
    const { events } = parse(res.text);
    const opening = events.find((e) => e.summary === 'Opening · Session')!;
    expect(opening.description).toBe('title: Opening\nseats: 10');
    expect(res.text).not.toContain('do not publish');
    expect(res.text).not.toContain('secret');
    expect(res.text).toContain('SUMMARY:Workshop\\; <b>&\\, "quoted" · Session');
    expect(opening.stamp.toJSDate().getTime()).toBe(Math.floor(new Date(records.opening!.updatedAt).getTime() / 1000) * 1000);
  });

  it('answers 304 to its own ETag, and a new ETag once a record, the view or the records change', async () => {
    const first = await feed();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await feed({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await feed({ 'if-none-match': `"other", ${etag.slice(2)}` })).status).toBe(304);
    expect((await feed({ 'if-none-match': '"other"' })).status).toBe(200);

    // a record changes
    expectOk(await bed.call('PATCH', `/v1/data-records/${records.workshop!.id}`, { fields: { [bed.events.fields.title!]: 'Workshop (moved)' } }));
    const changed = await feed({ 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Workshop (moved)');
    const etag2 = changed.headers.get('etag')!;
    expect(etag2).not.toBe(etag);
    // a record is added outside the filter: the feed is the same and keeps its ETag
    await createEvent(bed, { title: 'Also cancelled', starts: '2026-03-09T10:00:00Z', seats: 0 });
    expect((await feed({ 'if-none-match': etag2 })).status).toBe(304);
    // a record is deleted
    expectOk(await bed.call('DELETE', `/v1/data-records/${records.backwards!.id}`));
    const removed = await feed({ 'if-none-match': etag2 });
    expect(removed.status).toBe(200);
    expect(removed.text).not.toContain('Backwards');
    // the view changes (a display field less)
    const etag3 = removed.headers.get('etag')!;
    const detail = expectOk(await bed.call('GET', `/v1/data-views/${view}/admin-detail`));
    const seatsLink = detail.displayFieldLinks.find((l: any) => l.dataFieldSimplyId === bed.events.fields.seats).id;
    expectOk(await bed.call('DELETE', `/v1/data-views/${view}/display-field-links/${seatsLink}`));
    const narrower = await feed({ 'if-none-match': etag3 });
    expect(narrower.status).toBe(200);
    expect(parse(narrower.text).events.find((e) => e.summary === 'Opening · Session')!.description).toBe('title: Opening');
  });

  it('sends an unchanged feed again from memory, gzip-compressed for clients that accept it', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        https
          .get(`${bed.server.baseUrl}${feedPath}`, { ca: bed.server.ca, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const plain = await raw({});
    expect(plain.status).toBe(200);
    const packed = await raw({ 'accept-encoding': 'gzip, deflate' });
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toBe('Accept-Encoding');
    expect(packed.headers.etag).toBe(plain.headers.etag);
    expect(gunzipSync(packed.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(packed.body.length).toBeLessThan(plain.body.length);
    const again = await raw({});
    expect(again.headers['content-length']).toBe(String(plain.body.length));
    expect(again.body.equals(plain.body)).toBe(true);
  });

  it('a feed written from the changes since the last writing is the feed read whole', async () => {
    await feed();
    // an addition, a change, a record leaving the filter, one entering it, a deletion
    await createEvent(bed, { title: 'Late addition', starts: '2026-03-10T08:00:00Z', seats: 4 });
    const renamed = expectOk(await bed.call('PATCH', `/v1/data-records/${records.opening!.id}`, { fields: { [bed.events.fields.title!]: 'Grand opening' } }));
    expectOk(await bed.call('PATCH', `/v1/data-records/${records.workshop!.id}`, { fields: { [bed.events.fields.seats!]: 0 } }));
    expectOk(await bed.call('PATCH', `/v1/data-records/${records.cancelled!.id}`, { fields: { [bed.events.fields.seats!]: 1 } }));
    const gone = await createEvent(bed, { title: 'Gone again', starts: '2026-03-11T08:00:00Z', seats: 4 });
    await feed();
    expectOk(await bed.call('DELETE', `/v1/data-records/${gone.id}`));
    const incremental = await feed();
    expect(incremental.status).toBe(200);
    const summaries = parse(incremental.text).events.map((e) => e.summary);
    expect(summaries).toContain('Late addition · Session');
    expect(summaries).toContain('Cancelled · Session');
    expect(summaries.some((s) => s.startsWith('Workshop'))).toBe(false);
    expect(summaries.some((s) => s.startsWith('Gone again'))).toBe(false);
    const opening = parse(incremental.text).events.find((e) => e.summary === 'Grand opening · Session')!;
    expect(opening.description).toBe('title: Grand opening');
    expect(opening.stamp.toJSDate().getTime()).toBe(Math.floor(new Date(renamed.updatedAt).getTime() / 1000) * 1000);
    // a new token (revoked and created again: a new one) has no earlier writing: its feed is read whole, and is the same text
    expectOk(await bed.call('DELETE', `/v1/data-views/${view}/public-access-tokens/ICS_FEED`));
    feedPath = pathOf((await createToken(bed, view, 'ICS_FEED')).url);
    const whole = await feed();
    expect(whole.text).toBe(incremental.text);
  });

  it('answers HEAD with the headers only', async () => {
    const head = await feed({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe((await feed()).headers.get('etag'));
    expect((await bed.server.request('POST', feedPath)).status).toBe(405);
  });

  it('is 404 for a revoked token, an unpublished view and a token that never existed, alike', async () => {
    const unknown = await bed.server.request('GET', `/view-feeds/svc_vcf_${'B'.repeat(43)}.ics`);
    expect(unknown.status).toBe(404);
    await publish(bed, view, false);
    const unpublished = await feed();
    expect(unpublished.status).toBe(404);
    expect(unpublished.body.error).toMatchObject({ code: 'NOT_FOUND', message: unknown.body.error.message });
    await publish(bed, view, true);
    expect((await feed()).status).toBe(200);
    expectOk(await bed.call('DELETE', `/v1/data-views/${view}/public-access-tokens/ICS_FEED`));
    const revoked = await feed();
    expect(revoked.status).toBe(404);
    expect(revoked.body.error.message).toBe(unknown.body.error.message);
    for (const path of ['/view-feeds/', '/view-feeds/x.ics', `/view-feeds/svc_vcf_${'B'.repeat(43)}.ics/more`, '/view-feeds/%00.ics']) {
      expect((await bed.server.request('GET', path)).status, path).toBe(404);
    }
  });

  it('shows nothing of another team: a token only ever opens its own view', async () => {
    const otherFeed = expectOk(
      await bed.server.request('POST', '/v1/data-views', {
        token: bed.other.apiKey,
        body: { dataCollectionSimplyId: (await bed.server.request('GET', `/v1/data-views/${bed.otherView}`, { token: bed.other.apiKey })).body.data.dataCollectionSimplyId, name: 'Theirs', enumDataViewTypeId: 'CALENDAR' },
      }),
      201,
    );
    // the other team's view id through this team's credentials is 404 (privileged routes check the team first)
    expect((await bed.call('POST', `/v1/data-views/${otherFeed.id}/public-access-tokens/ICS_FEED`)).status).toBe(404);
  });
});
