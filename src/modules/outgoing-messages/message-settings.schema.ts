// GraphQL face of the team's messaging settings (docs/api/outgoing-messages.md "Approval"). Team
// administration: a team admin, or TEAM_SETTINGS (view to read, edit to change); never a scoped token.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { getMessageSettings, updateMessageSettings, type MessageSettings } from './message-settings.service.ts';

const MessageSettingsRef = builder.objectRef<MessageSettings>('MessageSettings').implement({
  description: "The team's messaging settings.",
  fields: (t) => ({
    approvalRequired: t.exposeBoolean('approvalRequired', { description: 'composed messages must be approved by another member before they are scheduled or sent' }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'null until first changed', resolve: (s) => s.updatedAt }),
  }),
});

const MessageSettingsInput = builder.inputType('MessageSettingsInput', {
  fields: (t) => ({ approvalRequired: t.boolean({ description: 'required' }) }),
});

builder.queryFields((t) => ({
  messageSettings: t.field({
    type: MessageSettingsRef,
    description: "The team's messaging settings (team admin or TEAM_SETTINGS view).",
    authScopes: tier.teamSettings('VIEW'),
    resolve: (_root, _args, ctx) => getMessageSettings(ctx),
  }),
}));

builder.mutationFields((t) => ({
  updateMessageSettings: t.field({
    type: MessageSettingsRef,
    description: 'Change the messaging settings (team admin or TEAM_SETTINGS edit).',
    authScopes: tier.teamSettings('EDIT'),
    args: { input: t.arg({ type: MessageSettingsInput, required: true }) },
    resolve: (_root, args, ctx) => updateMessageSettings(ctx, args.input.approvalRequired == null ? {} : args.input),
  }),
}));
