// Which team a Host serves: the VERIFIED resolver domains, held in memory per instance so the
// resolve path answers `teamOfHost` without a query. The table is read at the first use and again
// at most every REFRESH_MS in the background (a stale answer meanwhile, never a wait); a verify or
// remove on this instance refreshes it at once. So a domain verified or removed on another instance
// takes effect there within REFRESH_MS (docs/api/action-tags.md "Custom domains").
import type { Services } from '../../app/context.ts';

const REFRESH_MS = 30_000;

export interface DomainTeam {
  teamId: bigint;
  teamSimplyId: string;
}

export class ActionTagHosts {
  private byHost = new Map<string, DomainTeam>();
  /** team id → its first verified domain: where its publicUrls live */
  private byTeam = new Map<string, string>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  private readonly services: Pick<Services, 'prisma' | 'logger'>;

  constructor(services: Pick<Services, 'prisma' | 'logger'>) {
    this.services = services;
  }

  /** The team a verified domain serves, from memory (lower-case host, a port is ignored). */
  teamOfHost(host: string | undefined): DomainTeam | undefined {
    this.refreshIfStale();
    // asked for every request the server answers: most instances have no verified domain
    if (!host || this.byHost.size === 0) return undefined;
    return this.byHost.get(hostName(host));
  }

  /** The team's verified domain its publicUrls use (the first verified), from memory. */
  hostOfTeam(teamId: bigint): string | undefined {
    this.refreshIfStale();
    return this.byTeam.get(String(teamId));
  }

  /** Reads the table now (first use, and after a change on this instance). */
  refresh(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const rows = await this.services.prisma.actionTagDomain.findMany({
          where: { status: 'VERIFIED' },
          select: { domain: true, teamId: true, verifiedAt: true },
          orderBy: [{ verifiedAt: 'asc' }, { id: 'asc' }],
        });
        const teams = await this.services.prisma.team.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.teamId))] } }, select: { id: true, simplyId: true } });
        const simplyIds = new Map(teams.map((t) => [String(t.id), t.simplyId]));
        const byHost = new Map<string, DomainTeam>();
        const byTeam = new Map<string, string>();
        for (const r of rows) {
          const teamSimplyId = simplyIds.get(String(r.teamId));
          if (!teamSimplyId) continue;
          byHost.set(r.domain, { teamId: r.teamId, teamSimplyId });
          if (!byTeam.has(String(r.teamId))) byTeam.set(String(r.teamId), r.domain);
        }
        this.byHost = byHost;
        this.byTeam = byTeam;
        this.loadedAt = Date.now();
      } catch (err) {
        // keep serving the last table; try again at the next use after a pause
        this.loadedAt = Date.now() - REFRESH_MS + 5_000;
        this.services.logger.warn({ err }, 'could not load the verified action-tag domains');
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private refreshIfStale(): void {
    if (Date.now() - this.loadedAt >= REFRESH_MS) void this.refresh();
  }
}

function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  // [v6]:port, or name:port
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.replace(/:\d+$/, '').replace(/\.$/, '');
}

const perServices = new WeakMap<object, ActionTagHosts>();

/** The instance's table of verified domains (one per Services). */
export function actionTagHosts(services: Pick<Services, 'prisma' | 'logger'>): ActionTagHosts {
  let hosts = perServices.get(services);
  if (!hosts) {
    hosts = new ActionTagHosts(services);
    perServices.set(services, hosts);
    // read now (the resolve endpoints ask at start-up), so the first request on a domain finds it
    void hosts.refresh();
  }
  return hosts;
}
