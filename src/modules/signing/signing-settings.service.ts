// The team's signing settings (docs/api/signing-requests.md "Default expiry"): the expiry a signing
// request gets when its create gives neither expirationDays nor expiresAt. A team without a row,
// or with no default of its own, uses the platform default (SIGNING_LIMITS.defaultExpirationDays).
import type { RequestContext, Services } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { SIGNING_LIMITS, signingSettingsInput } from './signing.input.ts';

export interface SigningSettings {
  /** the team's own default, null when it uses the platform default */
  defaultExpirationDays: number | null;
  /** the days a request without an expiry gets now: the team's default, else the platform's */
  effectiveExpirationDays: number;
  platformDefaultExpirationDays: number;
  /** null until the settings were first changed */
  updatedAt: Date | null;
}

function settingsOf(row: { defaultExpirationDays: number | null; updatedAt: Date } | null): SigningSettings {
  const own = row?.defaultExpirationDays ?? null;
  return {
    defaultExpirationDays: own,
    effectiveExpirationDays: own ?? SIGNING_LIMITS.defaultExpirationDays,
    platformDefaultExpirationDays: SIGNING_LIMITS.defaultExpirationDays,
    updatedAt: row?.updatedAt ?? null,
  };
}

/** The days a request of the team gets when its create names no expiry. */
export async function defaultExpirationDays(services: Services, teamId: bigint): Promise<number> {
  const row = await services.prisma.teamSigningSettings.findUnique({ where: { teamId } });
  return settingsOf(row).effectiveExpirationDays;
}

export async function getSigningSettings(ctx: RequestContext): Promise<SigningSettings> {
  const team = requireTeam(ctx);
  return settingsOf(await ctx.services.prisma.teamSigningSettings.findUnique({ where: { teamId: team.id } }));
}

/** One upsert: concurrent changes each apply whole, the last one wins. */
export async function updateSigningSettings(ctx: RequestContext, raw: unknown): Promise<SigningSettings> {
  const team = requireTeam(ctx);
  const input = parseInput(signingSettingsInput, raw, 'Invalid signing settings');
  const row = await ctx.services.prisma.teamSigningSettings.upsert({
    where: { teamId: team.id },
    create: { teamId: team.id, defaultExpirationDays: input.defaultExpirationDays },
    update: { defaultExpirationDays: input.defaultExpirationDays },
  });
  return settingsOf(row);
}
