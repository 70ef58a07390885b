// The served pages an instance keeps in memory, so a request for a published page costs no database
// read: the stored rendering's bytes with the site and page they belong to (the access check runs
// on every request with them), by address (`/sites/{slug}` or a custom domain, and the path).
//
// An entry is dropped when its site changes: a trigger NOTIFYs the site's id on the commit of any
// change of what its pages show (prisma/migrations/…_website_renderings), and every instance
// listens. An entry also ends at its own time (a campaign entry starting or ending, a page with data
// views due again) and after MAX_AGE_MS at the latest. While the listening connection is down
// nothing is kept: pages are looked up on every request until it is back.
//
// Custom domains are known in memory too (the front door asks for every request whether its Host
// is one), loaded when the server starts and refreshed on the same notifications.
import type { Services } from '../../app/context.ts';
import { NotifiedCache } from '../../app/pubsub/notified-cache.ts';
import type { StoredRendering } from './render-store.ts';
import type { ServedPage, ServedSite } from './serve-site.ts';

export const SERVED_CHANNEL = 'svc_website_served';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 20_000;

export interface ServedEntry {
  site: ServedSite;
  page: ServedPage;
  rendering: StoredRendering;
  expiresAt: number;
}

export class ServedPagesCache {
  private readonly cache: NotifiedCache<ServedEntry>;
  /** custom domain → site id */
  private readonly domains = new Map<string, string>();
  private readonly services: Services;

  constructor(services: Services) {
    this.services = services;
    this.cache = new NotifiedCache(services.notifier, { channel: SERVED_CHANNEL, maxAgeMs: MAX_AGE_MS, maxEntries: MAX_ENTRIES });
  }

  /** Starts listening for changes and loads the custom domains (servers only). */
  async start(): Promise<void> {
    await this.cache.start((siteId) => {
      // a site named: its domain may have changed; null: the connection came back, notices may be lost
      if (siteId === null) void this.loadDomains();
      else if (/^\d+$/.test(siteId)) void this.refreshDomain(BigInt(siteId));
    });
    await this.loadDomains();
  }

  /** the generation to hand back to `put`: an entry resolved across a change is not kept */
  get current(): number {
    return this.cache.current;
  }

  get(key: string, now = Date.now()): ServedEntry | null {
    return this.cache.get(key, now);
  }

  put(key: string, entry: ServedEntry, generation: number): void {
    this.cache.put(String(entry.site.id), key, entry, generation, entry.expiresAt);
  }

  /** The site id of a custom domain (lower-case, no port), or undefined. */
  siteOfDomain(host: string): string | undefined {
    return this.domains.get(host);
  }

  get hasDomains(): boolean {
    return this.domains.size > 0;
  }

  private async loadDomains(): Promise<void> {
    try {
      const rows = await this.services.prisma.website.findMany({ where: { customDomain: { not: null } }, select: { id: true, customDomain: true } });
      this.domains.clear();
      for (const r of rows) this.domains.set(r.customDomain!, String(r.id));
    } catch (err) {
      this.services.logger.warn({ err }, 'could not load the custom domains of websites');
    }
  }

  private async refreshDomain(siteId: bigint): Promise<void> {
    try {
      const row = await this.services.prisma.website.findUnique({ where: { id: siteId }, select: { customDomain: true } });
      for (const [domain, id] of this.domains) if (id === String(siteId)) this.domains.delete(domain);
      if (row?.customDomain) this.domains.set(row.customDomain, String(siteId));
    } catch (err) {
      this.services.logger.warn({ err }, 'could not refresh the custom domain of a website');
    }
  }
}
