// Second-factor helpers of the MFA tests: codes computed from the secret the server handed out
// (as an authenticator app would), and a user with multi-factor sign-in enabled through the API.
import { generate } from 'otplib';
import { expectOk } from '../support/expect-envelope.ts';
import type { TestServer } from '../support/server.ts';

const PERIOD = 30;

/** The code of the current time step, or `steps` steps away from it. */
export function totp(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * PERIOD });
}

/** Six digits that match none of the steps the server could accept now (or just after a step change). */
export async function wrongCode(secret: string, seed = 0): Promise<string> {
  const near = new Set(await Promise.all([-2, -1, 0, 1, 2].map((s) => totp(secret, s))));
  for (let n = seed * 7919; ; n++) {
    const code = String(n % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

export const RECOVERY_CODE = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;

/** Setup and complete-setup with the current step's code (so the next usable code is the next step's). */
export async function enableMfa(server: TestServer, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = expectOk(await server.request('POST', '/v1/users/me/mfa/setup', { token }));
  const done = expectOk(await server.request('POST', '/v1/users/me/mfa/complete-setup', { token, body: { code: await totp(secret) } }));
  return { secret, recoveryCodes: done.recoveryCodes };
}

export async function mfaStatusOf(server: TestServer, token: string) {
  return expectOk(await server.request('GET', '/v1/users/me/mfa/status', { token }));
}
