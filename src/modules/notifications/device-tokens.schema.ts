// GraphQL face of push-token registration and the Web Push public key (docs/api/notifications.md
// "Push delivery"). REST: POST and DELETE /v1/notifications/device-token in
// rest-adapter/routes/notifications.ts.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { deactivateDeviceToken, registerDeviceToken, webPushPublicKey, type DeviceTokenRegistration } from './device-tokens.service.ts';

const DeviceTokenRegistrationRef = builder.objectRef<DeviceTokenRegistration>('DeviceTokenRegistration').implement({
  description: 'created: a token new to the current user (REST 201); refreshed: a token they had registered before (REST 200)',
  fields: (t) => ({
    deviceTokenSimplyId: t.exposeString('deviceTokenSimplyId'),
    created: t.exposeBoolean('created'),
    refreshed: t.exposeBoolean('refreshed'),
  }),
});

const DeviceTokenDeactivationRef = builder.objectRef<{ deactivated: true }>('DeviceTokenDeactivation').implement({
  fields: (t) => ({ deactivated: t.exposeBoolean('deactivated') }),
});

const RegisterDeviceTokenInput = builder.inputType('RegisterDeviceTokenInput', {
  fields: (t) => ({
    token: t.string({ required: true, description: 'ios: APNs device token (hex); android: FCM registration token; web: the PushSubscription as JSON ({ endpoint, keys: { p256dh, auth } })' }),
    platform: t.string({ required: true, description: 'ios, android or web' }),
    installationId: t.string({ required: true, description: "the app installation's own id; registered or refreshed with the token" }),
  }),
});

builder.queryFields((t) => ({
  webPushPublicKey: t.string({
    description: 'The VAPID public key (base64url) browsers pass as applicationServerKey to pushManager.subscribe(); the same on every instance and stable.',
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => webPushPublicKey(ctx),
  }),
}));

builder.mutationFields((t) => ({
  registerDeviceToken: t.field({
    type: DeviceTokenRegistrationRef,
    description: "Registers (or refreshes) the push token of one of the current user's installations.",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { input: t.arg({ type: RegisterDeviceTokenInput, required: true }) },
    resolve: (_root, args, ctx) => registerDeviceToken(ctx, givenFields(args.input)),
  }),
  deactivateDeviceToken: t.field({
    type: DeviceTokenDeactivationRef,
    description: 'Stops pushes to a token of the current user (404 TOKEN_NOT_FOUND for a token they do not hold).',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deactivateDeviceToken(ctx, { token: args.token });
      return { deactivated: true as const };
    },
  }),
}));
