// How `svc export` and `svc import` sign in. Background tasks belong to a person (API keys get
// 403 IDP_REQUIRED), so the commands act as a user: either with a user access token (--token,
// SVC_TOKEN) or by signing in with email and password (POST /v1/auth/login, then
// /v1/auth/login/mfa with a code when the account has multi-factor sign-in). A session the
// command opened itself is closed again at the end (POST /v1/auth/logout).
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { ApiCallError, ApiClient } from './api-client.ts';

/** A mistake on the command line: exit 2 with the usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ConnectionFlags {
  'base-url'?: string;
  team?: string;
  token?: string;
  email?: string;
  'mfa-code'?: string;
  'ca-cert'?: string;
}

export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  team: { type: 'string' },
  token: { type: 'string' },
  email: { type: 'string' },
  'mfa-code': { type: 'string' },
  'ca-cert': { type: 'string' },
} as const;

export interface SignedIn {
  client: ApiClient;
  /** ends a session the command opened itself (no-op for --token) */
  signOut(): Promise<void>;
}

export async function signIn(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Promise<SignedIn> {
  const baseUrl = flags['base-url'] ?? env.SVC_BASE_URL;
  const team = flags.team ?? env.SVC_TEAM_ID;
  if (!baseUrl) throw new UsageError('--base-url (or SVC_BASE_URL) is required: the https:// address of the platform');
  if (!team) throw new UsageError('--team (or SVC_TEAM_ID) is required: the teamSimplyId to work in');
  const caFile = flags['ca-cert'] ?? env.SVC_CA_CERT;
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = fs.readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new UsageError(`--ca-cert ${caFile}: ${(error as Error).message}`);
    }
  }
  const token = flags.token ?? env.SVC_TOKEN;
  const email = flags.email ?? env.SVC_EMAIL;
  if (token && flags.email) throw new UsageError('give either --token or --email, not both');
  let client: ApiClient;
  try {
    client = new ApiClient({ baseUrl, ca, teamId: team });
  } catch (error) {
    if (error instanceof ApiCallError) throw new UsageError(error.message);
    throw error;
  }
  if (token) {
    client.useToken(token);
    return { client, signOut: async () => client.close() };
  }
  if (!email) throw new UsageError('sign in with --token (or SVC_TOKEN, a user access token) or --email (or SVC_EMAIL) and a password');
  const password = env.SVC_PASSWORD ?? (await prompt(`password for ${email}: `, true));
  if (!password) throw new UsageError('no password: set SVC_PASSWORD, or run on a terminal to be asked for it');
  let session = await client.call('POST', '/v1/auth/login', { email, password, deviceName: 'svc command line' });
  if (session?.mfaRequired) {
    const code = flags['mfa-code'] ?? env.SVC_MFA_CODE ?? (await prompt('multi-factor code: ', false));
    if (!code) throw new UsageError('this account signs in with a second factor: pass --mfa-code <code>');
    session = await client.call('POST', '/v1/auth/login/mfa', { mfaChallengeToken: session.mfaChallengeToken, code });
  }
  client.useToken(session.accessToken);
  const refreshToken: string | undefined = session.refreshToken;
  return {
    client,
    signOut: async () => {
      // best effort: the access token expires within the hour anyway
      if (refreshToken) await client.call('POST', '/v1/auth/logout', { refreshToken }).catch(() => undefined);
      client.close();
    },
  };
}

/** Asks on the terminal (echo off for secrets); null when stdin is not a terminal. */
async function prompt(question: string, secret: boolean): Promise<string | null> {
  if (!process.stdin.isTTY) return null;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (secret) {
    // readline echoes through _writeToOutput: print the question, then nothing of what is typed
    const output = rl as unknown as { _writeToOutput(s: string): void };
    let asked = false;
    output._writeToOutput = (s: string) => {
      if (!asked) {
        process.stderr.write(s);
        asked = true;
      }
    };
  }
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    if (secret) process.stderr.write('\n');
    rl.close();
  }
}
