// What the area keeps per instance (`services.constituentAuth`): the keyed hashing of codes, and
// where magic links point (PUBLIC_BASE_URL, else the server's own address once it listens).
import type { Config } from '../../app/config.ts';
import { ConstituentSecrets } from './constituent-secrets.ts';

export interface ConstituentAuthRuntime {
  secrets: ConstituentSecrets;
  linkBaseUrl: string;
}

export function createRuntime(config: Config): ConstituentAuthRuntime {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return {
    secrets: new ConstituentSecrets(config.secretsKeyFile),
    linkBaseUrl: config.PUBLIC_BASE_URL ?? `https://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`,
  };
}

export function setLinkBaseUrl(runtime: ConstituentAuthRuntime, config: Config, baseUrl: string): void {
  if (!config.PUBLIC_BASE_URL) runtime.linkBaseUrl = baseUrl;
}
