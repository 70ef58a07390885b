// A signing request end to end over REST, with real mail (SMTP sink) and real jobs: the first
// signer is mailed, the second only after the first signed; viewing, signing, completion with the
// signature fields written back through the records service (audited, an automation fires), the
// per-signer audit trail with IP and user agent; decline, void, resend and lazy expiry each end
// or refresh links as documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationApi, type AutomationTestServer, startAutomationServer, updateFields } from '../support/automation-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { readRecord } from '../support/record-fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { MASK } from '../../src/modules/communications/masking.ts';
import { contractCollection, contractRecord, createBody, mailedToken, PNG_1x1, tokensFor, until } from './signing-support.ts';

let sink: SmtpSink;
let server: AutomationTestServer;
let team: TeamFixture;
let c: CollectionFixture;

const UA = 'SignerBrowser/1.0 (test)';

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startAutomationServer({ env: { SMTP_URL: sink.url } });
  team = await createTeam(server);
  c = await contractCollection(server, team);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

const { call, createAutomation, finished, disable } = automationApi(() => server, () => team.apiKey);
/** the signer's side: no credential, a browser's user agent */
const asSigner = (method: string, path: string, body?: unknown, ua = UA) => server.request(method, path, { body, headers: { 'user-agent': ua } });
const LOOPBACK = /127\.0\.0\.1|::1/;
const create = async (body: unknown) => expectOk(await call('POST', '/v1/signing-requests', body), 201);
const detail = async (id: string) => expectOk(await call('GET', `/v1/signing-requests/${id}`));
const addresses = (body: ReturnType<typeof createBody>) => body.signers.map((s) => s.email);

describe('signing order, viewing, signing and completion', () => {
  it('mails the first signer only; the second after the first signed; completion writes the fields back and fires the automation', async () => {
    const automation = await createAutomation({ name: 'Signed', triggerType: 'RECORD_UPDATED', dataCollectionSimplyId: c.id, actions: [updateFields({ [c.fields.status!]: 'signature received' })] });
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record);
    const [ada, bob] = addresses(body);
    const created = await create(body);
    expect(created).toMatchObject({ status: 'sent', sourceDataCollectionSimplyId: c.id, sourceDataRecordSimplyId: record });
    expect(created.signers).toEqual([
      expect.objectContaining({ roleKey: 'tenant', name: 'Ada Lovelace', email: ada, signingOrder: 1, status: 'sent', signedAt: null }),
      expect.objectContaining({ roleKey: 'landlord', name: 'Bob Builder', email: bob, signingOrder: 2, status: 'waiting', signedAt: null }),
    ]);

    const adaToken = await mailedToken(sink, ada!);
    const mail = sink.received.find((m) => m.rcptTo.includes(ada!))!;
    expect(mail.headers.get('subject')).toContain('Lease 12B');
    expect(tokensFor(sink, bob!)).toEqual([]);

    // opening the link shows the review fields and the consent, and records viewed
    const view = expectOk(await asSigner('GET', `/v1/signing?token=${adaToken}`));
    expect(view).toMatchObject({ signingRequestSimplyId: created.id, status: 'viewed', canSign: true, consentVersion: 'v1', consentText: { en: 'I agree to sign electronically.' } });
    expect(view.signer).toMatchObject({ roleKey: 'tenant', status: 'viewed' });
    expect(view.reviewFields).toEqual([
      { dataFieldSimplyId: c.fields.title, label: 'title', value: 'Lease 12B' },
      { dataFieldSimplyId: c.fields.amount, label: 'amount', value: '1200' },
    ]);
    expect((await detail(created.id)).status).toBe('viewed');

    // the consent version must be the one shown
    expectError(await asSigner('POST', '/v1/signing/sign', { token: adaToken, typedName: 'Ada Lovelace', consentAccepted: true, consentVersion: 'v0' }), 400, 'VALIDATION_ERROR');
    const signed = expectOk(await asSigner('POST', '/v1/signing/sign', { token: adaToken, typedName: 'Ada Lovelace', signatureImage: PNG_1x1, consentAccepted: true, consentVersion: 'v1' }));
    expect(signed).toMatchObject({ status: 'partiallySigned', canSign: false, signer: { status: 'signed' } });
    // signing twice is refused
    expectError(await asSigner('POST', '/v1/signing/sign', { token: adaToken, typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' }), 400, 'VALIDATION_ERROR');

    const bobToken = await mailedToken(sink, bob!);
    const partial = await detail(created.id);
    expect(partial.status).toBe('partiallySigned');
    expect(partial.signers.map((s: any) => s.status)).toEqual(['signed', 'sent']);

    expectOk(await asSigner('GET', `/v1/signing?token=${bobToken}`, undefined, 'OtherBrowser/2.0'));
    const last = expectOk(await asSigner('POST', '/v1/signing/sign', { token: bobToken, typedName: 'Bob Builder', consentAccepted: true, consentVersion: 'v1' }, 'OtherBrowser/2.0'));
    expect(last.status).toBe('completed');

    const done = await until('fields written back', async () => {
      const d = await detail(created.id);
      return d.targets.every((t: any) => t.state === 'WRITTEN') ? d : null;
    });
    expect(done).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect(done.targets).toHaveLength(3);
    const after = await readRecord(server, team.apiKey, record);
    expect(after.fields[c.fields.signature!]).toContain('Ada Lovelace (tenant) signed electronically');
    expect(after.fields[c.fields.signature!]).toContain('Bob Builder (landlord) signed electronically');
    expect(after.fields[c.fields.signed_on!]).toBe(done.completedAt.slice(0, 10));
    expect(after.fields[c.fields.agreed!]).toBe(true);

    // the write went through the records service: audited as the signing link, and the automation ran on it
    const audit = expectOk(await call('GET', `/v1/audit-log/records/DataRecord/${record}`));
    const update = audit.find((e: any) => e.action === 'UPDATE' && e.actor.kind === 'PUBLIC_LINK');
    expect(update, JSON.stringify(audit)).toMatchObject({ actor: { credentialId: created.id }, source: 'SIGNING' });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');
    await until('automation effect', async () => (await readRecord(server, team.apiKey, record)).fields[c.fields.status!] === 'signature received');
    await disable(automation.id);

    // the per-signer audit trail keeps time, IP address and user agent
    const [adaSigner, bobSigner] = done.signers;
    expect(adaSigner.events.map((e: any) => e.eventType)).toEqual(['SENT', 'VIEWED', 'SIGNED']);
    expect(adaSigner.events[1]).toMatchObject({ ipAddress: expect.stringMatching(LOOPBACK), userAgent: UA, occurredAt: expect.any(String) });
    expect(adaSigner.events[2]).toMatchObject({ ipAddress: expect.stringMatching(LOOPBACK), userAgent: UA, detail: { typedName: 'Ada Lovelace', drawnSignature: true, consentVersion: 'v1' } });
    expect(bobSigner.events.map((e: any) => e.eventType)).toEqual(['SENT', 'VIEWED', 'SIGNED']);
    expect(bobSigner.events[2]).toMatchObject({ ipAddress: expect.stringMatching(LOOPBACK), userAgent: 'OtherBrowser/2.0' });
    expect(adaSigner).toMatchObject({ hasDrawnSignature: true, typedName: 'Ada Lovelace', consentVersionAccepted: 'v1', linkActive: false });
    expect(done.events.map((e: any) => e.eventType)).toEqual(expect.arrayContaining(['CREATED', 'COMPLETED', 'FIELDS_WRITTEN']));

    // a completed request's links stop working; nothing more can be sent or voided
    expectError(await asSigner('GET', `/v1/signing?token=${bobToken}`), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, {}), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', `/v1/signing-requests/${created.id}/void`, {}), 400, 'VALIDATION_ERROR');
  });

  it('equal signing orders are invited together', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record, { signatureFieldSimplyIds: null });
    body.signers[1]!.signingOrder = 1;
    const created = await create(body);
    expect(created.signers.map((s: any) => s.status)).toEqual(['sent', 'sent']);
    const [ada, bob] = addresses(body);
    const tokens = await Promise.all([mailedToken(sink, ada!), mailedToken(sink, bob!)]);
    expect(expectOk(await asSigner('POST', '/v1/signing/sign', { token: tokens[1], typedName: 'Bob', consentAccepted: true, consentVersion: 'v1' })).status).toBe('partiallySigned');
    expect(expectOk(await asSigner('POST', '/v1/signing/sign', { token: tokens[0], typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' })).status).toBe('completed');
  });

  it('a signer linked to a constituent record gets a history row with the link masked', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const person = await contractRecord(server, team.apiKey, c, { [c.fields.title!]: 'Person record' });
    const body = createBody(c, record);
    body.signers = [{ roleKey: 'tenant', linkedConstituentDataRecordSimplyId: person, nameFieldSimplyId: c.fields.signer_name, emailFieldSimplyId: c.fields.signer_email } as never];
    const created = await create(body);
    expect(created.signers[0]).toMatchObject({ name: 'Grace Hopper', email: expect.stringMatching(/^grace-.*@signers\.test$/) });
    const token = await mailedToken(sink, created.signers[0].email);
    const history = expectOk(await call('GET', `/v1/data-records/${person}/communications/protected`, undefined, team.userToken, team.teamSimplyId));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ sourceType: 'SYSTEM', sourceSimplyId: created.id, destination: created.signers[0].email });
    expect(history[0].renderedText).toContain(MASK);
    expect(history[0].renderedText).not.toContain(token);
  });
});

describe('decline, void, resend and expiry', () => {
  it('a decline ends the request and disables every link', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record);
    body.signers[1]!.signingOrder = 1;
    const created = await create(body);
    const [ada, bob] = addresses(body);
    const adaToken = await mailedToken(sink, ada!);
    const bobToken = await mailedToken(sink, bob!);
    expectError(await asSigner('POST', '/v1/signing/decline', { token: adaToken }), 400, 'VALIDATION_ERROR');
    const declined = expectOk(await asSigner('POST', '/v1/signing/decline', { token: adaToken, reason: 'The rent is wrong' }));
    expect(declined).toMatchObject({ status: 'declined', signer: { status: 'declined' } });
    expectError(await asSigner('GET', `/v1/signing?token=${bobToken}`), 404, 'NOT_FOUND');
    expectError(await asSigner('POST', '/v1/signing/sign', { token: adaToken, typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' }), 404, 'NOT_FOUND');
    const d = await detail(created.id);
    expect(d.status).toBe('declined');
    expect(d.signers[0]).toMatchObject({ status: 'declined', declineReason: 'The rent is wrong' });
    expect(d.signers[0].events.at(-1)).toMatchObject({ eventType: 'DECLINED', userAgent: UA, detail: { reason: 'The rent is wrong' } });
    expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, {}), 400, 'VALIDATION_ERROR');
  });

  it('void records the reason and disables links; a second void is refused', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record);
    const created = await create(body);
    const token = await mailedToken(sink, addresses(body)[0]!);
    const voided = expectOk(await call('POST', `/v1/signing-requests/${created.id}/void`, { reason: 'Sent by mistake' }));
    expect(voided).toMatchObject({ signingRequestSimplyId: created.id, status: 'voided', voidReason: 'Sent by mistake', voidedAt: expect.any(String) });
    expectError(await asSigner('GET', `/v1/signing?token=${token}`), 404, 'NOT_FOUND');
    expectError(await asSigner('POST', '/v1/signing/sign', { token, typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' }), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/signing-requests/${created.id}/void`), 400, 'VALIDATION_ERROR');
    const d = await detail(created.id);
    expect(d.signers.every((s: any) => s.linkActive === false)).toBe(true);
    expect(d.events.at(-1)).toMatchObject({ eventType: 'VOIDED', detail: { reason: 'Sent by mistake' } });
  });

  it('resend replaces the links of unsigned signers whose turn it is, never of those who signed', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record);
    const created = await create(body);
    const [ada, bob] = addresses(body);
    const [adaId, bobId] = created.signers.map((s: any) => s.signingRequestSignerSimplyId);
    const first = await mailedToken(sink, ada!);

    // the second signer's turn has not come
    const waiting = expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, { signingRequestSignerSimplyIds: [bobId] }), 400, 'VALIDATION_ERROR');
    expect(waiting.details).toEqual([{ field: 'signingRequestSignerSimplyIds[0]', message: expect.stringContaining('lower signingOrder') }]);
    expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, { signingRequestSignerSimplyIds: ['sgs-AAAA-BBBB-CCCC'] }), 400, 'VALIDATION_ERROR');

    const resent = expectOk(await call('POST', `/v1/signing-requests/${created.id}/resend`));
    expect(resent).toMatchObject({ signingRequestSimplyId: created.id, status: 'sent', resentSignerSimplyIds: [adaId] });
    expect(resent.links).toEqual([{ signingRequestSignerSimplyId: adaId, email: ada, linkIssuedAt: expect.any(String), linkExpiresAt: expect.any(String) }]);
    const second = await mailedToken(sink, ada!, 2);
    expect(second).not.toBe(first);
    expectError(await asSigner('GET', `/v1/signing?token=${first}`), 404, 'NOT_FOUND');
    expectOk(await asSigner('POST', '/v1/signing/sign', { token: second, typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' }));

    // Ada signed: she cannot be resent; the default now targets Bob alone
    const signedOne = expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, { signingRequestSignerSimplyIds: [adaId] }), 400, 'VALIDATION_ERROR');
    expect(signedOne.details).toEqual([{ field: 'signingRequestSignerSimplyIds[0]', message: 'has already signed' }]);
    await mailedToken(sink, bob!);
    const again = expectOk(await call('POST', `/v1/signing-requests/${created.id}/resend`, { signingBaseUrl: 'https://sign.example.org/s/{token}' }));
    expect(again.resentSignerSimplyIds).toEqual([bobId]);
    const viaBase = await until('a link on the new base', async () =>
      sink.received.filter((m) => m.rcptTo.includes(bob!)).map((m) => m.raw.replace(/=\r\n/g, '')).find((raw) => raw.includes('https://sign.example.org/s/svc_sgn_')),
    );
    expect(viaBase).toBeTruthy();
    const d = await detail(created.id);
    expect(d.signers[1].events.filter((e: any) => e.eventType === 'SENT').at(-1).detail).toEqual({ resend: true });
  });

  it('sendImmediately false keeps the request created until a resend sends it', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record, { sendImmediately: false });
    const created = await create(body);
    expect(created.status).toBe('created');
    expect(created.signers.map((s: any) => s.status)).toEqual(['waiting', 'waiting']);
    const sent = expectOk(await call('POST', `/v1/signing-requests/${created.id}/resend`, {}));
    expect(sent).toMatchObject({ status: 'sent', resentSignerSimplyIds: [created.signers[0].signingRequestSignerSimplyId] });
    await mailedToken(sink, addresses(body)[0]!);
  });

  it('expiry is applied when read, and an expired link stops working', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record);
    const created = await create(body);
    const token = await mailedToken(sink, addresses(body)[0]!);
    await server.app.services.pool.query(`UPDATE "SigningRequest" SET "expiresAt" = now() - interval '1 second' WHERE "simplyId" = $1`, [created.id]);
    // nothing moved it yet: the read applies it
    expect((await server.app.services.pool.query(`SELECT status FROM "SigningRequest" WHERE "simplyId" = $1`, [created.id])).rows[0].status).toBe('SENT');
    const d = await detail(created.id);
    expect(d.status).toBe('expired');
    expect(d.events.at(-1).eventType).toBe('EXPIRED');
    expectError(await asSigner('GET', `/v1/signing?token=${token}`), 404, 'NOT_FOUND');
    expectError(await call('POST', `/v1/signing-requests/${created.id}/resend`, {}), 400, 'VALIDATION_ERROR');

    // a link used after expiry, before any read: refused, and the request expires
    const other = await create(createBody(c, record));
    const otherToken = await mailedToken(sink, other.signers[0].email);
    await server.app.services.pool.query(`UPDATE "SigningRequest" SET "expiresAt" = now() - interval '1 second' WHERE "simplyId" = $1`, [other.id]);
    expectError(await asSigner('POST', '/v1/signing/sign', { token: otherToken, typedName: 'Ada', consentAccepted: true, consentVersion: 'v1' }), 404, 'NOT_FOUND');
    expect((await server.app.services.pool.query(`SELECT status FROM "SigningRequest" WHERE "simplyId" = $1`, [other.id])).rows[0].status).toBe('EXPIRED');

    // the periodic sweep expires what nobody reads
    const third = await create(createBody(c, record));
    await server.app.services.pool.query(`UPDATE "SigningRequest" SET "expiresAt" = now() - interval '1 second' WHERE "simplyId" = $1`, [third.id]);
    const { expireDue } = await import('../../src/modules/signing/signing.sql.ts');
    expect(await expireDue(server.app.services.pool)).toBeGreaterThanOrEqual(1);
    expect((await server.app.services.pool.query(`SELECT status, (SELECT count(*) FROM "SigningRequestSigner" s WHERE s."signingRequestId" = r.id AND s."linkTokenHash" IS NOT NULL)::int AS live FROM "SigningRequest" r WHERE "simplyId" = $1`, [third.id])).rows[0]).toEqual({ status: 'EXPIRED', live: 0 });
  });

  it('refuses unknown and malformed links alike', async () => {
    expectError(await asSigner('GET', '/v1/signing?token=svc_sgn_not-a-real-token-at-all-xxxxxxxxxx'), 404, 'NOT_FOUND');
    expectError(await asSigner('GET', '/v1/signing?token=nonsense'), 404, 'NOT_FOUND');
    expectError(await asSigner('GET', '/v1/signing'), 404, 'NOT_FOUND');
    expectError(await asSigner('POST', '/v1/signing/sign', { typedName: 'Ada', consentAccepted: true }), 400, 'VALIDATION_ERROR');
    expectError(await asSigner('POST', '/v1/signing/decline', { token: 'svc_sgn_not-a-real-token-at-all-xxxxxxxxxx', reason: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('the signer side over GraphQL', () => {
  const SESSION = 'signingRequestSimplyId status canSign signer { roleKey status } reviewFields { label value }';
  it('views, signs in order and completes; bad signatures are refused', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const body = createBody(c, record, { signatureFieldSimplyIds: null });
    const created = gqlData(await server.graphql('mutation($input: CreateSigningRequestInput!) { createSigningRequest(input: $input) { signingRequestSimplyId status } }', { input: body }, { token: team.apiKey })).createSigningRequest;
    expect(created.status).toBe('sent');
    const [ada, bob] = addresses(body);
    const adaToken = await mailedToken(sink, ada!);
    const viewed = gqlData(await server.graphql(`query($t: String!) { signingSession(signingToken: $t) { ${SESSION} } }`, { t: adaToken })).signingSession;
    expect(viewed).toMatchObject({ signingRequestSimplyId: created.signingRequestSimplyId, status: 'viewed', canSign: true, signer: { roleKey: 'tenant', status: 'viewed' } });
    const SIGN = `mutation($t: String!, $input: SignSigningRequestInput!) { signSigningRequest(signingToken: $t, input: $input) { ${SESSION} } }`;
    const refusals: [string, Record<string, unknown>][] = [
      ['consent not accepted', { typedName: 'Ada', consentAccepted: false, consentVersion: 'v1' }],
      ['neither typed nor drawn', { consentAccepted: true, consentVersion: 'v1' }],
      ['not a PNG', { signatureImage: `data:image/png;base64,${Buffer.from('GIF89a-not-a-png').toString('base64')}`, consentAccepted: true, consentVersion: 'v1' }],
      ['too large', { signatureImage: `data:image/png;base64,${Buffer.alloc(210 * 1024, 1).toString('base64')}`, consentAccepted: true, consentVersion: 'v1' }],
      ['not a data URL', { signatureImage: 'https://example.org/sig.png', consentAccepted: true, consentVersion: 'v1' }],
    ];
    for (const [, input] of refusals) expectGqlError(await server.graphql(SIGN, { t: adaToken, input }), 'VALIDATION_ERROR', 400);
    for (const [label, input] of refusals) expectError(await asSigner('POST', '/v1/signing/sign', { token: adaToken, ...input }), 400, 'VALIDATION_ERROR', label);
    const signed = gqlData(await server.graphql(SIGN, { t: adaToken, input: { signatureImage: PNG_1x1, consentAccepted: true, consentVersion: 'v1' } })).signSigningRequest;
    expect(signed).toMatchObject({ status: 'partiallySigned', canSign: false, signer: { status: 'signed' } });
    const bobToken = await mailedToken(sink, bob!);
    const DECLINE = 'mutation($t: String!, $r: String!) { declineSigningRequest(signingToken: $t, input: { reason: $r }) { status signer { status } } }';
    expect(gqlData(await server.graphql(DECLINE, { t: bobToken, r: 'Not today' })).declineSigningRequest).toEqual({ status: 'declined', signer: { status: 'declined' } });
    expectGqlError(await server.graphql(DECLINE, { t: bobToken, r: 'again' }), 'NOT_FOUND', 404);
  });
});
