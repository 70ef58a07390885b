// The first-party identity provider's signing key: an Ed25519 key pair kept as a JWK file in
// the data folder (mode 0600), created on first start. Every instance serving the same users
// must share this file (JWT_SIGNING_KEY_FILE).
import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function loadOrCreateSigningKey(file: string): Promise<SigningKey> {
  let jwk: JWK;
  if (fs.existsSync(file)) {
    jwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
  } else {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    jwk = { ...(await exportJWK(privateKey)), alg: 'EdDSA', use: 'sig', kid: `k-${Date.now().toString(36)}` };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // `wx`: if another process created it meanwhile, keep theirs
    try {
      fs.writeFileSync(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      jwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
    }
  }
  const privateKey = (await importJWK(jwk, 'EdDSA')) as CryptoKey;
  const { d: _private, ...publicJwk } = jwk;
  return { kid: jwk.kid ?? 'default', privateKey, publicJwk };
}

/** The key pair as its file keeps it (private JWK), for a library that signs with it itself. */
export function readPrivateJwk(file: string): JWK {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
}
