// Constituent sign-in over REST and GraphQL: codes (expiry, the fifth failure, single use), magic
// links (single use, never by code), rotating refresh tokens with reuse detection, logout, the
// profile, the mail that reaches a real SMTP server with its history row masked, and isolation of
// the constituent token from team routes (and of team credentials from the constituent's routes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../src/modules/communications/masking.ts';
import { WITHHELD_CONTENT } from '../../src/modules/mail/mail.schema.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { until } from '../support/until.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { caller, codeIn, createContacts, freshIp, linkTokenIn, mailOf, type Answer } from './constituent-fixtures.ts';

let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
let sink: SmtpSink;
let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let contacts: CollectionFixture;
let person: { id: string; email: string };

const { call, graphql } = caller(() => server);

const data = (answer: Answer, status = 200) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body.data;
};
const errorOf = (answer: Answer, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error.code).toBe(code);
  return answer.body.error;
};

async function newPerson(email = `p-${Math.random().toString(36).slice(2, 10)}@constituent.test`) {
  const record = data(await call('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: contacts.id, fields: { [contacts.fields.name!]: 'Pat', [contacts.fields.email!]: email } } }), 201);
  return { id: record.id as string, email };
}

async function initiate(email: string, method: 'CODE' | 'LINK' = 'CODE', teamSimplyId = team.teamSimplyId) {
  return data(await call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId, contactValue: email, method } }));
}

async function signIn(email = person.email, device: { platform?: string; deviceName?: string } = {}) {
  const v = await initiate(email);
  const mail = await mailOf(server, v.verificationSimplyId);
  const tokens = data(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code: codeIn(mail!.textBody), ...device } }));
  return tokens as { accessToken: string; refreshToken: string; accessTokenExpiresAt: string; refreshTokenExpiresAt: string };
}

beforeAll(async () => {
  db = await createMigratedDatabase('constituent-auth');
  sink = await startSmtpSink();
  server = await startTestServer({ databaseUrl: db.url, runJobs: true, env: { TRUST_PROXY: true, SMTP_URL: sink.url } });
  [team, other] = await Promise.all([createTeam(server, { name: 'Riverside Club' }), createTeam(server)]);
  contacts = await createContacts(server, team);
  person = await newPerson();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
  await db?.drop();
});

describe('initiate', () => {
  it('mails a 6-digit code that reaches the SMTP server; the history row masks it', async () => {
    const v = await initiate(person.email.toUpperCase());
    expect(v.verificationSimplyId).toMatch(/^cvf-/);
    const ttl = Date.parse(v.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const mail = await mailOf(server, v.verificationSimplyId);
    const code = codeIn(mail!.textBody);
    expect(mail!.toAddresses).toEqual([person.email]);
    const received = await until('the code at the SMTP sink', () => sink.received.find((m) => m.rcptTo.includes(person.email) && m.raw.includes(code)));
    expect(received.headers.get('subject')).toContain(code);
    const { rows } = await server.app.services.pool.query(
      `SELECT d.* FROM "ConstituentMessageDelivery" d JOIN "DataRecord" r ON r.id = d."dataRecordId" WHERE r."simplyId" = $1 AND d."sourceSimplyId" = $2`,
      [person.id, v.verificationSimplyId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sourceType: 'CONSTITUENT_AUTHENTICATION', channelId: 'EMAIL', sensitivity: 'SENSITIVE', destination: person.email });
    for (const part of [rows[0].renderedSubject, rows[0].renderedText]) {
      expect(part).not.toContain(code);
      expect(part).toContain(MASK);
    }
  });

  it('the team\'s mail log shows that the code was sent, never the code', async () => {
    const v = await initiate(person.email);
    const mail = await mailOf(server, v.verificationSimplyId);
    const code = codeIn(mail!.textBody);
    const shown = data(await call('GET', `/v1/mail-messages/${mail!.simplyId}`, { token: team.apiKey }));
    expect(shown).toMatchObject({ source: 'CONSTITUENT_AUTHENTICATION', subject: WITHHELD_CONTENT, text: WITHHELD_CONTENT });
    expect(JSON.stringify(shown)).not.toContain(code);
    const listed = data(await call('GET', '/v1/mail-messages?limit=100', { token: team.apiKey }));
    expect(JSON.stringify(listed)).not.toContain(code);
  });

  it('a LINK mails a magic link to /v1/constituent-auth/verify; the history row masks it', async () => {
    const v = await initiate(person.email, 'LINK');
    const ttl = Date.parse(v.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(119 * 60_000);
    const mail = await mailOf(server, v.verificationSimplyId);
    expect(mail!.textBody).toMatch(/\/v1\/constituent-auth\/verify\?token=svc_cml_/);
    const token = linkTokenIn(mail!.textBody);
    const { rows } = await server.app.services.pool.query(`SELECT "renderedText" FROM "ConstituentMessageDelivery" WHERE "sourceSimplyId" = $1`, [v.verificationSimplyId]);
    expect(rows[0].renderedText).not.toContain(token);
    expect(rows[0].renderedText).toContain(MASK);
  });

  it('unknown address, unknown team and another team: the same answer, no mail, no history, a decoy row', async () => {
    const answers = [
      await call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: team.teamSimplyId, contactValue: 'nobody@constituent.test', method: 'CODE' } }),
      await call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: 'tm-ZZZZ-ZZZZ-ZZZZ', contactValue: person.email, method: 'CODE' } }),
      // the address is a constituent of `team`, not of `other`
      await call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: other.teamSimplyId, contactValue: person.email, method: 'CODE' } }),
    ];
    const real = await call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: team.teamSimplyId, contactValue: person.email, method: 'CODE' } });
    const shape = (a: Answer) => ({ status: a.status, keys: Object.keys(a.body).sort(), dataKeys: Object.keys(a.body.data).sort(), ttl: Math.round((Date.parse(a.body.data.expiresAt) - Date.now()) / 60_000) });
    for (const a of answers) {
      expect(shape(a)).toEqual(shape(real));
      expect(a.body.data.verificationSimplyId).toMatch(/^cvf-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
      expect(await mailOf(server, a.body.data.verificationSimplyId)).toBeNull();
      const history = await server.app.services.pool.query(`SELECT 1 FROM "ConstituentMessageDelivery" WHERE "sourceSimplyId" = $1`, [a.body.data.verificationSimplyId]);
      expect(history.rowCount).toBe(0);
      const row = await server.app.services.prisma.constituentVerification.findUnique({ where: { simplyId: a.body.data.verificationSimplyId } });
      expect(row).toMatchObject({ dataRecordId: null, state: 'ISSUED' });
    }
  });

  it('GraphQL: initiateConstituentAuth answers the same fields', async () => {
    const res = await graphql('mutation($input: InitiateConstituentAuthInput!) { initiateConstituentAuth(input: $input) { verificationSimplyId expiresAt } }', {
      input: { teamSimplyId: team.teamSimplyId, contactValue: person.email, method: 'CODE' },
    });
    expect(res.errors).toBeUndefined();
    expect(await mailOf(server, res.data.initiateConstituentAuth.verificationSimplyId)).not.toBeNull();
  });

  it('bad input is 400 VALIDATION_ERROR naming the field; a phone number is refused (no SMS yet)', async () => {
    const cases: [unknown, string][] = [
      [{ teamSimplyId: team.teamSimplyId, contactValue: 'not an address', method: 'CODE' }, 'contactValue'],
      [{ teamSimplyId: team.teamSimplyId, contactValue: '+14155552671', method: 'CODE' }, 'contactValue'],
      [{ teamSimplyId: team.teamSimplyId, contactValue: person.email, method: 'SMS' }, 'method'],
      [{ teamSimplyId: '42', contactValue: person.email, method: 'CODE' }, 'teamSimplyId'],
      [{ contactValue: person.email, method: 'CODE' }, 'teamSimplyId'],
      [{ teamSimplyId: team.teamSimplyId, contactValue: person.email, method: 'CODE', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const error = errorOf(await call('POST', '/v1/constituent-auth/initiate', { body }), 400, 'VALIDATION_ERROR');
      expect(error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).toContain(field);
    }
    const phone = errorOf(await call('POST', '/v1/constituent-auth/initiate', { body: cases[1]![0] }), 400, 'VALIDATION_ERROR');
    expect(phone.details[0].message).toMatch(/SMS/);
  });
});

describe('verify by code', () => {
  it('the right code gives tokens (30 minutes, 90 days) once; the code is single use', async () => {
    const v = await initiate(person.email);
    const code = codeIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const tokens = data(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code, platform: 'ios', deviceName: 'Pat’s phone' } }));
    expect(tokens.accessToken).toMatch(/^svc_cat_/);
    expect(tokens.refreshToken).toMatch(/^svc_crt_/);
    expect(Date.parse(tokens.accessTokenExpiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(Date.parse(tokens.accessTokenExpiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(Date.parse(tokens.refreshTokenExpiresAt) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } }), 401, 'UNAUTHENTICATED');
    // stored hashed: neither the code nor the tokens appear in the rows
    const row = await server.app.services.prisma.constituentVerification.findUnique({ where: { simplyId: v.verificationSimplyId } });
    expect(row!.state).toBe('CONSUMED');
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const session = await server.app.services.prisma.constituentSession.findFirst({ where: { deviceName: 'Pat’s phone' } });
    expect(session!.accessTokenHash).not.toContain(tokens.accessToken);
  });

  it('the fifth wrong code invalidates the verification: even the right code no longer works', async () => {
    const v = await initiate(person.email);
    const code = codeIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const wrong = code === '000000' ? '111111' : '000000';
    const ip = freshIp();
    for (let i = 1; i <= 4; i++) {
      errorOf(await call('POST', '/v1/constituent-auth/verify', { ip, body: { verificationSimplyId: v.verificationSimplyId, code: wrong } }), 400, 'INVALID_VERIFICATION_CODE');
    }
    // the fifth failure, then the right code: refused
    errorOf(await call('POST', '/v1/constituent-auth/verify', { ip, body: { verificationSimplyId: v.verificationSimplyId, code: wrong } }), 400, 'INVALID_VERIFICATION_CODE');
    errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } }), 401, 'UNAUTHENTICATED');
    const row = await server.app.services.prisma.constituentVerification.findUnique({ where: { simplyId: v.verificationSimplyId } });
    expect(row).toMatchObject({ state: 'INVALIDATED', failedAttempts: 5 });
  });

  it('four wrong codes leave the right one working', async () => {
    const v = await initiate(person.email);
    const code = codeIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code: wrong } }), 400, 'INVALID_VERIFICATION_CODE');
    data(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } }));
  });

  it('an expired code is refused (15 minutes)', async () => {
    const v = await initiate(person.email);
    const code = codeIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    await server.app.services.prisma.constituentVerification.update({ where: { simplyId: v.verificationSimplyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } }), 401, 'UNAUTHENTICATED');
  });

  it('a decoy never verifies; its wrong codes answer like a real one’s', async () => {
    const decoy = await initiate('nobody-at-all@constituent.test');
    const real = await initiate(person.email);
    const realCode = codeIn((await mailOf(server, real.verificationSimplyId))!.textBody);
    const wrong = realCode === '999999' ? '888888' : '999999';
    for (const v of [decoy, real]) {
      const error = errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code: wrong } }), 400, 'INVALID_VERIFICATION_CODE');
      expect(error.details).toEqual([{ field: 'code', message: 'not accepted' }]);
    }
  });

  it('unknown verification: 401; malformed: 400 VALIDATION_ERROR', async () => {
    errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: 'cvf-ZZZZ-ZZZZ-ZZZZ', code: '123456' } }), 401, 'UNAUTHENTICATED');
    for (const body of [{ verificationSimplyId: 'x', code: '123456' }, { verificationSimplyId: 'cvf-ZZZZ-ZZZZ-ZZZZ', code: '12345' }, { verificationSimplyId: 'cvf-ZZZZ-ZZZZ-ZZZZ' }, { verificationSimplyId: 'cvf-ZZZZ-ZZZZ-ZZZZ', code: '123456', platform: 'beos' }]) {
      errorOf(await call('POST', '/v1/constituent-auth/verify', { body }), 400, 'VALIDATION_ERROR');
    }
  });

  it('GraphQL: verifyConstituentAuth', async () => {
    const v = await initiate(person.email);
    const code = codeIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const res = await graphql('mutation($input: VerifyConstituentAuthInput!) { verifyConstituentAuth(input: $input) { accessToken refreshToken accessTokenExpiresAt refreshTokenExpiresAt } }', {
      input: { verificationSimplyId: v.verificationSimplyId, code },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.verifyConstituentAuth.accessToken).toMatch(/^svc_cat_/);
    const again = await graphql('mutation($input: VerifyConstituentAuthInput!) { verifyConstituentAuth(input: $input) { accessToken } }', { input: { verificationSimplyId: v.verificationSimplyId, code } });
    expect(again.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('magic link', () => {
  it('GET verify?token= signs in once; the link never works twice', async () => {
    const v = await initiate(person.email, 'LINK');
    const token = linkTokenIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const tokens = data(await call('GET', `/v1/constituent-auth/verify?token=${encodeURIComponent(token)}&platform=web`));
    expect(tokens.accessToken).toMatch(/^svc_cat_/);
    errorOf(await call('GET', `/v1/constituent-auth/verify?token=${encodeURIComponent(token)}`), 401, 'UNAUTHENTICATED');
    errorOf(await call('GET', '/v1/constituent-auth/verify?token=svc_cml_unknown'), 401, 'UNAUTHENTICATED');
    errorOf(await call('GET', '/v1/constituent-auth/verify'), 400, 'VALIDATION_ERROR');
  });

  it('a LINK verification posted without its emailed token is refused; with it, it works', async () => {
    const v = await initiate(person.email, 'LINK');
    const token = linkTokenIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    const refused = errorOf(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code: '123456' } }), 400, 'INVALID_VERIFICATION_CODE');
    expect(refused.details[0].field).toBe('code');
    data(await call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, token } }));
    // used up: the link itself is spent too
    errorOf(await call('GET', `/v1/constituent-auth/verify?token=${encodeURIComponent(token)}`), 401, 'UNAUTHENTICATED');
  });

  it('an expired link (2 hours) is refused; GraphQL verifyConstituentMagicLink', async () => {
    const v = await initiate(person.email, 'LINK');
    const token = linkTokenIn((await mailOf(server, v.verificationSimplyId))!.textBody);
    await server.app.services.prisma.constituentVerification.update({ where: { simplyId: v.verificationSimplyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    errorOf(await call('GET', `/v1/constituent-auth/verify?token=${encodeURIComponent(token)}`), 401, 'UNAUTHENTICATED');
    const fresh = await initiate(person.email, 'LINK');
    const freshToken = linkTokenIn((await mailOf(server, fresh.verificationSimplyId))!.textBody);
    const res = await graphql('mutation($token: String!) { verifyConstituentMagicLink(token: $token) { accessToken refreshToken } }', { token: freshToken });
    expect(res.errors).toBeUndefined();
    expect(res.data.verifyConstituentMagicLink.refreshToken).toMatch(/^svc_crt_/);
  });
});

describe('session', () => {
  it('refresh rotates both tokens; the old access and refresh tokens stop working', async () => {
    const first = await signIn();
    const me = data(await call('GET', '/v1/constituent-auth/me', { token: first.accessToken }));
    expect(me.simplyId).toBe(person.id);
    const second = data(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: first.refreshToken } }));
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: first.accessToken }), 401, 'UNAUTHENTICATED');
    data(await call('GET', '/v1/constituent-auth/me', { token: second.accessToken }));
  });

  it('presenting a rotated refresh token again ends the whole session (reuse detection)', async () => {
    const first = await signIn();
    const second = data(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: first.refreshToken } }));
    errorOf(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: first.refreshToken } }), 401, 'UNAUTHENTICATED');
    // the thief's (or the owner's) newer pair is dead too
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: second.accessToken }), 401, 'UNAUTHENTICATED');
    errorOf(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: second.refreshToken } }), 401, 'UNAUTHENTICATED');
    const session = await server.app.services.prisma.constituentSession.findFirst({ where: { accessTokenHash: { not: '' }, revokedReason: 'REFRESH_REUSE' } });
    expect(session).not.toBeNull();
  });

  it('GraphQL: refreshConstituentAuth and constituentMe', async () => {
    const first = await signIn();
    const res = await graphql('mutation($r: String!) { refreshConstituentAuth(refreshToken: $r) { accessToken refreshToken } }', { r: first.refreshToken });
    expect(res.errors).toBeUndefined();
    const me = await graphql('{ constituentMe { simplyId sessions { platform deviceName lastActiveAt current } } }', {}, { token: res.data.refreshConstituentAuth.accessToken });
    expect(me.errors).toBeUndefined();
    expect(me.data.constituentMe.simplyId).toBe(person.id);
    const garbage = await graphql('mutation { refreshConstituentAuth(refreshToken: "svc_crt_nope") { accessToken } }');
    expect(garbage.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('me lists the open sessions with platform, device name and last activity; logout ends only the current one', async () => {
    const someone = await newPerson();
    const phone = await signIn(someone.email, { platform: 'ios', deviceName: 'Phone' });
    const laptop = await signIn(someone.email, { platform: 'web', deviceName: 'Laptop' });
    const me = data(await call('GET', '/v1/constituent-auth/me', { token: phone.accessToken }));
    expect(me.simplyId).toBe(someone.id);
    expect(me.sessions).toHaveLength(2);
    expect(me.sessions.map((s: { deviceName: string }) => s.deviceName).sort()).toEqual(['Laptop', 'Phone']);
    const current = me.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ platform: 'ios', deviceName: 'Phone' });
    expect(Date.parse(current.lastActiveAt)).toBeGreaterThan(Date.now() - 60_000);

    expect(data(await call('POST', '/v1/constituent-auth/logout', { token: phone.accessToken }))).toEqual({ loggedOut: true });
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: phone.accessToken }), 401, 'UNAUTHENTICATED');
    errorOf(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: phone.refreshToken } }), 401, 'UNAUTHENTICATED');
    const after = data(await call('GET', '/v1/constituent-auth/me', { token: laptop.accessToken }));
    expect(after.sessions.map((s: { deviceName: string }) => s.deviceName)).toEqual(['Laptop']);
    const gqlLogout = await graphql('mutation { logoutConstituent }', {}, { token: laptop.accessToken });
    expect(gqlLogout.data).toEqual({ logoutConstituent: true });
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: laptop.accessToken }), 401, 'UNAUTHENTICATED');
  });

  it('an expired access token is refused; a deleted record ends its sessions', async () => {
    const someone = await newPerson();
    const tokens = await signIn(someone.email);
    await server.app.services.pool.query(`UPDATE "ConstituentSession" SET "accessExpiresAt" = now() - interval '1 second' WHERE "accessTokenHash" = encode(sha256($1::bytea), 'hex')`, [tokens.accessToken]);
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: tokens.accessToken }), 401, 'UNAUTHENTICATED');
    const renewed = data(await call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: tokens.refreshToken } }));
    data(await call('GET', '/v1/constituent-auth/me', { token: renewed.accessToken }));
    data(await call('DELETE', `/v1/data-records/${someone.id}`, { token: team.apiKey }));
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: renewed.accessToken }), 401, 'UNAUTHENTICATED');
  });
});

describe('isolation', () => {
  let tokens: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    tokens = await signIn();
  });

  it('a constituent token on team routes: 403 CONSTITUENT_TOKEN_NOT_ALLOWED (REST and GraphQL)', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/data-records/${person.id}`],
      ['GET', '/v1/data-records?dataCollectionSimplyId=' + contacts.id],
      ['POST', '/v1/data-records', { dataCollectionSimplyId: contacts.id, fields: {} }],
      ['GET', '/v1/data-collections'],
      ['GET', '/v1/users/me'],
      ['GET', '/v1/users'],
      ['GET', '/v1/team-roles'],
      ['GET', '/v1/api-keys'],
      ['GET', `/v1/data-records/${person.id}/communications`],
      ['GET', '/v1/users/me/mfa/status'],
    ];
    for (const [method, path, body] of routes) {
      const answer = await call(method, path, { token: tokens.accessToken, body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body)}`).toBe(403);
      expect(answer.body.error.code, `${method} ${path}`).toBe('CONSTITUENT_TOKEN_NOT_ALLOWED');
    }
    for (const query of ['{ viewer { credentialKind } }', '{ dataCollections { nodes { id } } }', `{ dataRecord(dataRecordSimplyId: "${person.id}") { id } }`]) {
      const res = await graphql(query, {}, { token: tokens.accessToken });
      expect(res.errors?.[0]?.extensions?.code, query).toBe('CONSTITUENT_TOKEN_NOT_ALLOWED');
    }
  });

  it('combined with a team selection (X-Team-Id or teamSimplyId) the constituent token is refused, even on its own routes', async () => {
    errorOf(await call('GET', '/v1/constituent-auth/me', { token: tokens.accessToken, headers: { 'x-team-id': team.teamSimplyId } }), 403, 'CONSTITUENT_TOKEN_NOT_ALLOWED');
    errorOf(await call('GET', `/v1/constituent-auth/me?teamSimplyId=${team.teamSimplyId}`, { token: tokens.accessToken }), 403, 'CONSTITUENT_TOKEN_NOT_ALLOWED');
    data(await call('GET', '/v1/constituent-auth/me', { token: tokens.accessToken }));
  });

  it('team credentials on me and logout: 403 CONSTITUENT_TOKEN_REQUIRED; none: 401', async () => {
    const minted = data(await call('POST', '/v1/session-tokens', { token: team.apiKey, body: {} }), 201);
    for (const [token, teamId] of [[team.apiKey], [minted.token], [team.userToken, team.teamSimplyId], [team.userToken]] as [string, string?][]) {
      const headers = teamId ? { 'x-team-id': teamId } : undefined;
      errorOf(await call('GET', '/v1/constituent-auth/me', { token, headers }), 403, 'CONSTITUENT_TOKEN_REQUIRED');
      errorOf(await call('POST', '/v1/constituent-auth/logout', { token, headers }), 403, 'CONSTITUENT_TOKEN_REQUIRED');
    }
    errorOf(await call('GET', '/v1/constituent-auth/me'), 401, 'UNAUTHENTICATED');
    errorOf(await call('POST', '/v1/constituent-auth/logout'), 401, 'UNAUTHENTICATED');
    const gql = await graphql('{ constituentMe { simplyId } }', {}, { token: team.apiKey });
    expect(gql.errors?.[0]?.extensions?.code).toBe('CONSTITUENT_TOKEN_REQUIRED');
  });
});
