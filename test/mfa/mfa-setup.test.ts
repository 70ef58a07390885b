// A person's own second factor: status, setup (secret, otpauth URI, QR code), verify, complete-setup
// with recovery codes, disable, the shared failure limit, and who may call these routes at all.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretBoxFor } from '../../src/app/secret-box.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';
import { enableMfa, mfaStatusOf, RECOVERY_CODE, totp, wrongCode } from './mfa-fixtures.ts';

const BASE32 = /^[A-Z2-7]{32}$/;

describe('multi-factor sign-in: self-service', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const call = (method: string, path: string, token: string, body?: unknown) => server.request(method, path, { token, body });
  const userRow = (userSimplyId: string) => server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: userSimplyId } });

  it('setup hands out a secret, an otpauth URI and a PNG QR code; the secret is stored sealed and bound to its owner', async () => {
    const member = await addMember(server, team);
    expect(await mfaStatusOf(server, member.token)).toEqual({ enabled: false, pendingSetup: false, enabledAt: null, recoveryCodesRemaining: 0 });

    const setup = expectOk(await call('POST', '/v1/users/me/mfa/setup', member.token));
    expect(setup.secret).toMatch(BASE32);
    expect(setup.otpauthUri).toBe(
      `otpauth://totp/svc%20platform:${encodeURIComponent(member.email)}?secret=${setup.secret}&issuer=svc%20platform&algorithm=SHA1&digits=6&period=30`,
    );
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(setup.qrCodeDataUrl.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(await mfaStatusOf(server, member.token)).toEqual({ enabled: false, pendingSetup: true, enabledAt: null, recoveryCodesRemaining: 0 });

    const user = await userRow(member.userSimplyId);
    const stored = await server.app.services.prisma.userMfa.findUniqueOrThrow({ where: { userId: user.id } });
    expect(stored.status).toBe('PENDING');
    const bytes = Buffer.from(stored.secretSealed);
    expect(bytes.includes(Buffer.from(setup.secret))).toBe(false);
    expect(bytes.toString('latin1')).not.toContain(setup.secret);
    const box = secretBoxFor(server.app.services.config.secretsKeyFile);
    expect(box.open(stored.secretSealed, `mfa:${member.userSimplyId}`)).toBe(setup.secret);
    // copied onto another person's row, the box does not open
    const other = await addMember(server, team);
    expect(() => box.open(stored.secretSealed, `mfa:${other.userSimplyId}`)).toThrow();

    // a second setup replaces the unconfirmed secret: codes of the first no longer match
    const again = expectOk(await call('POST', '/v1/users/me/mfa/setup', member.token));
    expect(again.secret).not.toBe(setup.secret);
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: await totp(setup.secret) }))).toEqual({ valid: false });
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: await totp(again.secret) }))).toEqual({ valid: true });
  });

  it('verify checks without changing anything; complete-setup enables and returns ten recovery codes, stored as hashes', async () => {
    const member = await addMember(server, team);
    const { secret } = expectOk(await call('POST', '/v1/users/me/mfa/setup', member.token));
    const code = await totp(secret);

    // spaces as some apps show them are fine; the code stays usable after verify
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: `${code.slice(0, 3)} ${code.slice(3)}` }))).toEqual({ valid: true });
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: await wrongCode(secret) }))).toEqual({ valid: false });
    expect((await mfaStatusOf(server, member.token)).pendingSetup).toBe(true);
    for (const body of [{ code: '12345' }, { code: 'abcdef' }, { code: 123456 }, {}, { code, extra: 1 }]) {
      const error = expectError(await call('POST', '/v1/users/me/mfa/verify', member.token, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.length).toBeGreaterThan(0);
    }

    const wrong = expectError(await call('POST', '/v1/users/me/mfa/complete-setup', member.token, { code: await wrongCode(secret, 1) }), 400, 'INVALID_MFA_CODE');
    expect(wrong.details).toEqual([{ field: 'code', message: 'not accepted' }]);
    expect((await mfaStatusOf(server, member.token)).enabled).toBe(false);

    const done = expectOk(await call('POST', '/v1/users/me/mfa/complete-setup', member.token, { code }));
    expect(done.enabled).toBe(true);
    expect(done.recoveryCodes).toHaveLength(10);
    expect(new Set(done.recoveryCodes).size).toBe(10);
    for (const c of done.recoveryCodes) expect(c).toMatch(RECOVERY_CODE);
    const status = await mfaStatusOf(server, member.token);
    expect(status).toEqual({ enabled: true, pendingSetup: false, enabledAt: done.enabledAt, recoveryCodesRemaining: 10 });

    const user = await userRow(member.userSimplyId);
    const rows = await server.app.services.prisma.mfaRecoveryCode.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.codeHash).sort()).toEqual(
      done.recoveryCodes.map((c: string) => createHash('sha256').update(c.replace(/-/g, '')).digest('hex')).sort(),
    );

    // the code that enabled it is used up (single use within its window)
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code }))).toEqual({ valid: false });
    // enabled: no second setup or completion
    expectError(await call('POST', '/v1/users/me/mfa/setup', member.token), 409, 'CONFLICT');
    expectError(await call('POST', '/v1/users/me/mfa/complete-setup', member.token, { code: await totp(secret, 1) }), 409, 'CONFLICT');
  });

  it('complete-setup, verify and disable without a setup are 409 CONFLICT', async () => {
    const member = await addMember(server, team);
    expectError(await call('POST', '/v1/users/me/mfa/complete-setup', member.token, { code: '123456' }), 409, 'CONFLICT');
    expectError(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: '123456' }), 409, 'CONFLICT');
    expectError(await call('DELETE', '/v1/users/me/mfa', member.token, { code: '123456' }), 409, 'CONFLICT');
  });

  it('disable needs a current code or an unused recovery code; it removes the secret and the recovery codes', async () => {
    const member = await addMember(server, team);
    const { secret, recoveryCodes } = await enableMfa(server, member.token);
    const user = await userRow(member.userSimplyId);

    expectError(await call('DELETE', '/v1/users/me/mfa', member.token), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', '/v1/users/me/mfa', member.token, {}), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', '/v1/users/me/mfa', member.token, { code: '123456', recoveryCode: recoveryCodes[0] }), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', '/v1/users/me/mfa', member.token, { code: await wrongCode(secret) }), 400, 'INVALID_MFA_CODE');
    const badRecovery = expectError(await call('DELETE', '/v1/users/me/mfa', member.token, { recoveryCode: 'AAAA-BBBB-CCCC' }), 400, 'INVALID_MFA_CODE');
    expect(badRecovery.details).toEqual([{ field: 'recoveryCode', message: 'not accepted' }]);
    expect((await mfaStatusOf(server, member.token)).enabled).toBe(true);

    // a recovery code in `code`, typed in lower case without hyphens
    expect(expectOk(await call('DELETE', '/v1/users/me/mfa', member.token, { code: recoveryCodes[3]!.replace(/-/g, '').toLowerCase() }))).toEqual({ disabled: true });
    expect(await mfaStatusOf(server, member.token)).toEqual({ enabled: false, pendingSetup: false, enabledAt: null, recoveryCodesRemaining: 0 });
    expect(await server.app.services.prisma.userMfa.count({ where: { userId: user.id } })).toBe(0);
    expect(await server.app.services.prisma.mfaRecoveryCode.count({ where: { userId: user.id } })).toBe(0);

    // set up again, disabled with the next step's code
    const second = await enableMfa(server, member.token);
    expect(second.secret).not.toBe(secret);
    expect(expectOk(await call('DELETE', '/v1/users/me/mfa', member.token, { code: await totp(second.secret, 1) }))).toEqual({ disabled: true });
  });

  it('GraphQL: the same operations', async () => {
    const member = await addMember(server, team);
    const gql = (query: string, variables: Record<string, unknown> = {}) => server.graphql(query, variables, { token: member.token });
    expect(gqlData(await gql('{ mfaStatus { enabled pendingSetup enabledAt recoveryCodesRemaining } }')).mfaStatus).toEqual({
      enabled: false,
      pendingSetup: false,
      enabledAt: null,
      recoveryCodesRemaining: 0,
    });
    const { setupMfa } = gqlData(await gql('mutation { setupMfa { secret otpauthUri qrCodeDataUrl } }'));
    expect(setupMfa.secret).toMatch(BASE32);
    const code = await totp(setupMfa.secret);
    expect(gqlData(await gql('mutation($c: String!) { verifyMfaCode(code: $c) { valid } }', { c: code })).verifyMfaCode).toEqual({ valid: true });
    expectGqlError(await gql('mutation($c: String!) { completeMfaSetup(code: $c) { enabled } }', { c: await wrongCode(setupMfa.secret) }), 'INVALID_MFA_CODE', 400);
    const done = gqlData(await gql('mutation($c: String!) { completeMfaSetup(code: $c) { enabled enabledAt recoveryCodes } }', { c: code })).completeMfaSetup;
    expect(done.recoveryCodes).toHaveLength(10);
    expect(gqlData(await gql('{ mfaStatus { enabled recoveryCodesRemaining } }')).mfaStatus).toEqual({ enabled: true, recoveryCodesRemaining: 10 });
    expectGqlError(await gql('mutation { disableMfa }'), 'VALIDATION_ERROR', 400);
    expect(gqlData(await gql('mutation($r: String) { disableMfa(recoveryCode: $r) }', { r: done.recoveryCodes[0] })).disableMfa).toBe(true);
  });

  it('API keys and session tokens get 403 IDP_REQUIRED; no credential is 401', async () => {
    const { token: sessionToken } = await mintSessionToken(server, team.apiKey);
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/users/me/mfa/status'],
      ['POST', '/v1/users/me/mfa/setup'],
      ['POST', '/v1/users/me/mfa/verify', { code: '123456' }],
      ['POST', '/v1/users/me/mfa/complete-setup', { code: '123456' }],
      ['DELETE', '/v1/users/me/mfa', { code: '123456' }],
    ];
    for (const [method, path, body] of routes) {
      expectError(await call(method, path, team.apiKey, body), 403, 'IDP_REQUIRED', `${method} ${path} (API key)`);
      expectError(await call(method, path, sessionToken, body), 403, 'IDP_REQUIRED', `${method} ${path} (session token)`);
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED', `${method} ${path} (none)`);
    }
    expectGqlError(await server.graphql('mutation { setupMfa { secret } }', {}, { token: team.apiKey }), 'IDP_REQUIRED', 403);
    expectGqlError(await server.graphql('{ mfaStatus { enabled } }', {}, { token: sessionToken }), 'IDP_REQUIRED', 403);
  });

  it('after 10 wrong codes in 15 minutes every code check is 429 with Retry-After, even a right code; other people are not affected', async () => {
    const member = await addMember(server, team);
    const { secret } = expectOk(await call('POST', '/v1/users/me/mfa/setup', member.token));
    for (let i = 0; i < 10; i++) {
      expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: await wrongCode(secret, i) })), `attempt ${i + 1}`).toEqual({ valid: false });
    }
    for (const path of ['/v1/users/me/mfa/verify', '/v1/users/me/mfa/complete-setup']) {
      const res = await call('POST', path, member.token, { code: await totp(secret) });
      expectError(res, 429, 'RATE_LIMIT_EXCEEDED', path);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
    }
    expectError(await call('DELETE', '/v1/users/me/mfa', member.token, { code: await totp(secret) }), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await mfaStatusOf(server, member.token)).pendingSetup).toBe(true);
    // the failures are kept per person in the database (every instance counts them)
    const user = await userRow(member.userSimplyId);
    expect(await server.app.services.prisma.mfaFailure.count({ where: { userId: user.id } })).toBe(10);

    // once the oldest failure leaves the window, a code is checked again
    await server.app.services.prisma.mfaFailure.updateMany({ where: { userId: user.id }, data: { failedAt: new Date(Date.now() - 16 * 60_000) } });
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', member.token, { code: await totp(secret) }))).toEqual({ valid: true });

    const other = await addMember(server, team);
    const otherSetup = expectOk(await call('POST', '/v1/users/me/mfa/setup', other.token));
    expect(expectOk(await call('POST', '/v1/users/me/mfa/verify', other.token, { code: await totp(otherSetup.secret) }))).toEqual({ valid: true });
  });

  describe('with a second instance', () => {
    let twin: TestServer;
    beforeAll(async () => {
      // same database and data folder (signing key, secrets key): another instance of one deployment
      twin = await startTestServer({ dataDir: server.dataDir });
    });
    afterAll(() => twin.close());

    it('wrong codes on either instance count toward one limit', async () => {
      const member = await addMember(server, team);
      const { secret } = expectOk(await call('POST', '/v1/users/me/mfa/setup', member.token));
      for (let i = 0; i < 10; i++) {
        const instance = i % 2 === 0 ? server : twin;
        expect(expectOk(await instance.request('POST', '/v1/users/me/mfa/verify', { token: member.token, body: { code: await wrongCode(secret, i) } })).valid).toBe(false);
      }
      expectError(await twin.request('POST', '/v1/users/me/mfa/complete-setup', { token: member.token, body: { code: await totp(secret) } }), 429, 'RATE_LIMIT_EXCEEDED');
      expectError(await server.request('POST', '/v1/users/me/mfa/complete-setup', { token: member.token, body: { code: await totp(secret) } }), 429, 'RATE_LIMIT_EXCEEDED');
    });

    it('one code presented to both instances at once is accepted once', async () => {
      const member = await addMember(server, team);
      const { secret } = await enableMfa(server, member.token);
      const code = await totp(secret, 1);
      const answers = await Promise.all([server, twin, server, twin].map((instance) => instance.request('DELETE', '/v1/users/me/mfa', { token: member.token, body: { code } })));
      // they take turns on the person's row: the first disables, the others then find nothing set up
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
      expect(await mfaStatusOf(server, member.token)).toMatchObject({ enabled: false, pendingSetup: false });
    });
  });
});
