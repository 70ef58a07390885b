// GraphQL face of the team's signing settings (docs/api/signing-requests.md "Default expiry"). Team
// administration: a team admin, or TEAM_SETTINGS (view to read, edit to change); never a scoped token.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { SIGNING_LIMITS } from './signing.input.ts';
import { getSigningSettings, updateSigningSettings, type SigningSettings } from './signing-settings.service.ts';

const SigningSettingsRef = builder.objectRef<SigningSettings>('SigningSettings').implement({
  description: "The team's signing settings.",
  fields: (t) => ({
    defaultExpirationDays: t.int({
      nullable: true,
      description: `days a signing request created without expirationDays or expiresAt stays usable; null: the platform default (${SIGNING_LIMITS.defaultExpirationDays})`,
      resolve: (s) => s.defaultExpirationDays,
    }),
    effectiveExpirationDays: t.exposeInt('effectiveExpirationDays', { description: 'the days such a request gets now: the team default, else the platform default' }),
    platformDefaultExpirationDays: t.exposeInt('platformDefaultExpirationDays', { description: 'the platform default, used while defaultExpirationDays is null' }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'null until first changed', resolve: (s) => s.updatedAt }),
  }),
});

const SigningSettingsInput = builder.inputType('SigningSettingsInput', {
  fields: (t) => ({
    defaultExpirationDays: t.int({ description: `1-${SIGNING_LIMITS.expirationDaysMax}, or null for the platform default; required` }),
  }),
});

builder.queryFields((t) => ({
  signingSettings: t.field({
    type: SigningSettingsRef,
    description: "The team's signing settings (team admin or TEAM_SETTINGS view).",
    authScopes: tier.teamSettings('VIEW'),
    resolve: (_root, _args, ctx) => getSigningSettings(ctx),
  }),
}));

builder.mutationFields((t) => ({
  updateSigningSettings: t.field({
    type: SigningSettingsRef,
    description: 'Change the signing settings (team admin or TEAM_SETTINGS edit).',
    authScopes: tier.teamSettings('EDIT'),
    args: { input: t.arg({ type: SigningSettingsInput, required: true }) },
    // GraphQL cannot tell a left-out field from null: a left-out one is refused like a missing key in REST
    resolve: (_root, args, ctx) => updateSigningSettings(ctx, 'defaultExpirationDays' in args.input ? args.input : {}),
  }),
}));
