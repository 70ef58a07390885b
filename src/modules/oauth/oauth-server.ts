// One authorization server per instance. Its issuer is the instance's public base URL, known once
// the server listens (the module's onListening). Instances behind one address must be given the
// same PUBLIC_BASE_URL and share the database and the data folder's keys: the signing key
// (JWT_SIGNING_KEY_FILE) and the secrets key (SECRETS_KEY_FILE), from which the provider's cookie
// keys are derived. Then any instance continues a flow another began.
import fs from 'node:fs';
import type Provider from 'oidc-provider';
import type { Services } from '../../app/context.ts';
import { readPrivateJwk } from '../../app/auth/signing-key.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import { createOAuthProvider, OAUTH_INTERACTION_PATH } from './oauth-provider.ts';
import { guardedMetadataFetch } from './oauth-metadata-fetch.ts';
import { oauthStorageFor } from './oauth-storage.ts';

const issuers = new WeakMap<Services, string>();
const servers = new WeakMap<Services, Provider>();

export function setOAuthIssuer(services: Services, baseUrl: string): void {
  issuers.set(services, baseUrl.replace(/\/+$/, ''));
}

/** The instance's authorization server; null before the instance listens (a CLI, a worker). */
export function oauthServerOf(services: Services): Provider | null {
  const existing = servers.get(services);
  if (existing) return existing;
  const issuer = issuers.get(services);
  if (!issuer) return null;
  const { config } = services;
  const provider = createOAuthProvider({
    issuer,
    storage: oauthStorageFor(services),
    jwks: { keys: [readPrivateJwk(config.jwtSigningKeyFile)] },
    cookieKeys: [derivedSecretsKey(config.secretsKeyFile, 'svc oauth cookies v1').toString('base64url')],
    interactionPath: (uid) => `${OAUTH_INTERACTION_PATH}/${uid}`,
    proxy: config.TRUST_PROXY,
    fetchClientMetadata: guardedMetadataFetch({
      allowLoopback: config.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK,
      ca: config.OAUTH_CLIENT_METADATA_CA_FILE ? fs.readFileSync(config.OAUTH_CLIENT_METADATA_CA_FILE, 'utf8') : undefined,
    }),
  });
  servers.set(services, provider);
  return provider;
}
