// Issues the first-party identity provider's access tokens and verifies user JWTs: our own
// (by issuer) and, when configured, an external identity provider's through its JWKS URL.
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import { UnauthenticatedError } from '../errors.ts';
import type { SigningKey } from './signing-key.ts';

export interface VerifiedUserToken {
  source: 'first-party' | 'external';
  /** first party: the user's simplyId; external: `iss|sub` */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** the built-in provider's sign-in session (`sid`); null for tokens without one (external providers) */
  sessionSimplyId: string | null;
}

type JwtConfig = Pick<
  Config,
  'JWT_ISSUER' | 'JWT_AUDIENCE' | 'JWT_ACCESS_TTL_SECONDS' | 'IDP_JWKS_URL' | 'IDP_ISSUER' | 'IDP_AUDIENCE'
>;

export class JwtService {
  private readonly ownKeys: ReturnType<typeof createLocalJWKSet>;
  private readonly externalKeys: ReturnType<typeof createRemoteJWKSet> | null;

  private readonly key: SigningKey;
  private readonly config: JwtConfig;

  constructor(key: SigningKey, config: JwtConfig) {
    this.key = key;
    this.config = config;
    this.ownKeys = createLocalJWKSet({ keys: [key.publicJwk] });
    this.externalKeys = config.IDP_JWKS_URL ? createRemoteJWKSet(new URL(config.IDP_JWKS_URL)) : null;
  }

  get jwks() {
    return { keys: [this.key.publicJwk] };
  }

  /** `sessionSimplyId` (claim `sid`): the sign-in session the token belongs to; revoking it refuses the token */
  async issueAccessToken(userSimplyId: string, sessionSimplyId?: string): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.config.JWT_ACCESS_TTL_SECONDS;
    const token = await new SignJWT(sessionSimplyId ? { sid: sessionSimplyId } : {})
      .setProtectedHeader({ alg: 'EdDSA', kid: this.key.kid, typ: 'JWT' })
      .setSubject(userSimplyId)
      .setIssuer(this.config.JWT_ISSUER)
      .setAudience(this.config.JWT_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setJti(crypto.randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Signature checks cost ~100 µs each; a token that verified once stays valid until its `exp`
   * (JWTs cannot be revoked), so verified tokens are remembered by hash until then.
   */
  private readonly verified = new LRUCache<string, VerifiedUserToken>({ max: 20_000 });

  async verify(token: string): Promise<VerifiedUserToken> {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = this.verified.get(key);
    if (hit) return hit;
    const { result, expiresAt } = await this.verifyUncached(token);
    const ttl = expiresAt - Date.now();
    if (ttl > 0) this.verified.set(key, result, { ttl });
    return result;
  }

  private async verifyUncached(token: string): Promise<{ result: VerifiedUserToken; expiresAt: number }> {
    const issuer = peekIssuer(token);
    try {
      if (issuer === this.config.JWT_ISSUER) {
        const { payload } = await jwtVerify(token, this.ownKeys, {
          issuer: this.config.JWT_ISSUER,
          audience: this.config.JWT_AUDIENCE,
          algorithms: ['EdDSA'],
        });
        return {
          result: {
            source: 'first-party',
            subject: requireSub(payload),
            email: null,
            emailVerified: false,
            sessionSimplyId: typeof payload.sid === 'string' ? payload.sid : null,
          },
          expiresAt: expiryOf(payload),
        };
      }
      if (this.externalKeys && (!this.config.IDP_ISSUER || issuer === this.config.IDP_ISSUER)) {
        const { payload } = await jwtVerify(token, this.externalKeys, {
          issuer: this.config.IDP_ISSUER,
          audience: this.config.IDP_AUDIENCE,
        });
        return {
          result: {
            source: 'external',
            subject: `${payload.iss ?? ''}|${requireSub(payload)}`,
            email: typeof payload.email === 'string' ? payload.email.toLowerCase() : null,
            emailVerified: payload.email_verified === true,
            sessionSimplyId: null,
          },
          expiresAt: expiryOf(payload),
        };
      }
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new UnauthenticatedError('The access token has expired');
      if (error instanceof UnauthenticatedError) throw error;
      throw new UnauthenticatedError('The access token is not valid');
    }
    throw new UnauthenticatedError('The access token was not issued by a trusted identity provider');
  }
}

/** Tokens without `exp` are not remembered (they are re-verified every time). */
function expiryOf(payload: JWTPayload): number {
  return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
}

function peekIssuer(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JWTPayload;
    return typeof parsed.iss === 'string' ? parsed.iss : null;
  } catch {
    return null;
  }
}

function requireSub(payload: JWTPayload): string {
  if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
    throw new UnauthenticatedError('The access token has no subject');
  }
  return payload.sub;
}
