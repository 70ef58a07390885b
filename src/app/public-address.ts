// The address the links the platform hands out point at (embed pages, calendar feeds, wizard
// forms, chat widgets): PUBLIC_BASE_URL when set, else this server's own address once it listens
// (the server records it before the modules' onListening hooks run). A worker, which never listens,
// falls back to https://localhost: set PUBLIC_BASE_URL wherever links are minted outside a server.
import type { Config } from './config.ts';

export interface PublicAddress {
  /** the listening server's base URL (PUBLIC_BASE_URL wins); null until it listens */
  baseUrl: string | null;
}

export function publicBaseUrl(services: { config: Pick<Config, 'PUBLIC_BASE_URL'>; publicAddress: PublicAddress }): string {
  return (services.config.PUBLIC_BASE_URL ?? services.publicAddress.baseUrl ?? 'https://localhost').replace(/\/+$/, '');
}
