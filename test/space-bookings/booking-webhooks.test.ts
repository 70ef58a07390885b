// Live updates of a source connection delivered for real: the four subscriptions over the mapped
// collections reach the connection's receiver on SVC_SPACES_WEBHOOK_HOST, signed with the one
// secret shown at registration; any other target is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';
import { at, monday, spacesBed, type SpacesBed } from './space-bookings-fixtures.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 25 });
let hooks: WebhookBed;
let server: TestServer;
let bed: SpacesBed;

beforeAll(async () => {
  hooks = await startWebhookBed('space_booking_hooks');
  const host = new URL(hooks.receiver.origin).host;
  server = await startTestServer({ databaseUrl: hooks.db.url, runJobs: true, env: { ...hooks.env, SVC_SPACES_WEBHOOK_HOST: host } as never });
  bed = await spacesBed(server);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await hooks?.close();
});

describe('booking webhook subscriptions', () => {
  it('deliver booking changes to the receiver, signed with the secret shown once', async () => {
    const path = `/svc-spaces/webhooks/${bed.connection}`;
    const route = `/v1/svc-spaces/source-connections/${bed.connection}/webhook-subscriptions`;
    const wrong = await server.request('POST', route, { token: bed.spacesToken, body: { targetUrl: `${hooks.receiver.origin}/elsewhere` } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'SVC_SPACES_BOOKING_REQUEST_INVALID', details: [{ field: 'targetUrl' }] });
    const byKey = await server.request('POST', route, { token: bed.team.apiKey, body: { targetUrl: `${hooks.receiver.origin}${path}` } });
    expect(byKey.body.error.code).toBe('SVC_SPACES_OAUTH_CLIENT_REQUIRED');

    const created = await server.request('POST', route, { token: bed.spacesToken, body: { targetUrl: `${hooks.receiver.origin}${path}` } });
    expect(created.status, created.text).toBe(201);
    const { secret, subscriptions } = created.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(subscriptions.map((s: any) => s.eventType).sort()).toEqual(['DATA_RECORDS_BULK_SYNCED', 'DATA_RECORD_CREATED', 'DATA_RECORD_DELETED', 'DATA_RECORD_UPDATED']);
    expect(subscriptions[0].dataCollectionSimplyIds).toEqual([bed.rooms.id, bed.bookings.id, bed.people.id]);
    // listed among the team's webhooks, never with the secret
    const listed = await server.request('GET', '/v1/webhooks', { token: bed.team.apiKey });
    expect(listed.body.data).toHaveLength(4);
    expect(listed.text).not.toContain(secret);
    hooks.receiver.secret(path, secret);

    const day = monday(2);
    const run = await server.request('POST', `/v1/svc-spaces/source-connections/${bed.connection}/booking-runs`, {
      token: bed.spacesToken,
      body: { bookingChannelSimplyId: bed.channel, startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [bed.roomIds[0]], title: 'Hooked' },
    });
    expect(run.status, run.text).toBe(201);
    const delivery = await until('the booking delivery', () => hooks.receiver.on(path).find((d) => d.body?.eventType === 'DATA_RECORD_CREATED'));
    expect(delivery.signatureValid).toBe(true);
    expect(JSON.stringify(delivery.body)).toContain(run.body.data.bookingRecordSimplyId);
  }, 30_000);
});
