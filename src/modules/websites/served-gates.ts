// Which served pages are gated, kept in memory per site so that a public page still costs no
// database read (the served pages themselves are in memory too: serve-cache.ts). A site's entry is
// dropped on the same notification that drops its served pages (SERVED_CHANNEL), which fires on any
// change of its page tree and of its access areas (a trigger on WebsiteAccessArea). While the
// listening connection is down nothing is kept: the areas are read on every request, so a change is
// never missed and a gated page is never served as public.
import type { Services } from '../../app/context.ts';
import { areasByPage, type GateArea } from './access-gates.ts';
import { SERVED_CHANNEL } from './serve-cache.ts';

const MAX_SITES = 5000;
const MAX_AGE_MS = 60_000;

interface SiteGates {
  /** page id → the enabled area that applies to it */
  byPage: Map<bigint, GateArea>;
  loadedAt: number;
}

class ServedGates {
  private readonly sites = new Map<string, SiteGates>();
  private generation = 0;
  private listening = false;
  private starting: Promise<void> | null = null;

  private readonly services: Services;

  constructor(services: Services) {
    this.services = services;
  }

  private start(): void {
    if (this.starting) return;
    const { notifier } = this.services;
    notifier.onDisconnect(() => this.clear());
    notifier.onReconnect(() => this.clear());
    this.starting = notifier
      .listen(SERVED_CHANNEL, (siteId) => {
        this.generation++;
        this.sites.delete(siteId);
      })
      .then(() => {
        this.listening = true;
      })
      .catch((err: unknown) => this.services.logger.warn({ err }, 'gated website pages are looked up on every request'));
  }

  private clear(): void {
    this.generation++;
    this.sites.clear();
  }

  private get usable(): boolean {
    return this.listening && this.services.notifier.connected;
  }

  async areaOf(site: { id: bigint; teamId: bigint }, pageId: bigint): Promise<GateArea | null> {
    this.start();
    const key = String(site.id);
    const now = Date.now();
    const kept = this.usable ? this.sites.get(key) : undefined;
    if (kept && now - kept.loadedAt < MAX_AGE_MS) return kept.byPage.get(pageId) ?? null;
    const generation = this.generation;
    const loaded = await this.load(site);
    // a change while it loaded: serve it once, keep nothing
    if (this.usable && generation === this.generation) {
      if (this.sites.size >= MAX_SITES) this.sites.clear();
      this.sites.set(key, { byPage: loaded, loadedAt: now });
    }
    return loaded.get(pageId) ?? null;
  }

  private async load(site: { id: bigint; teamId: bigint }): Promise<Map<bigint, GateArea>> {
    const { prisma } = this.services;
    const areas = await prisma.websiteAccessArea.findMany({
      where: { teamId: site.teamId, websiteId: site.id, enabled: true },
      select: { simplyId: true, name: true, rootPageSimplyIds: true, admits: true, signInMessage: true, enabled: true },
      orderBy: { id: 'asc' },
    });
    // most sites have no areas: one read, and no page tree
    if (areas.length === 0) return new Map();
    const pages = await prisma.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id }, select: { id: true, simplyId: true, parentId: true } });
    return areasByPage(pages, areas);
  }
}

const bound = new WeakMap<Services, ServedGates>();

/** The enabled access area that gates the served page, or null (public). */
export function servedGate(services: Services, site: { id: bigint; teamId: bigint }, pageId: bigint): Promise<GateArea | null> {
  let gates = bound.get(services);
  if (!gates) bound.set(services, (gates = new ServedGates(services)));
  return gates.areaOf(site, pageId);
}
