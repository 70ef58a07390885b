// GraphQL face of the current user's mobile devices and per-device settings.
// REST: /v1/users/me/mobile-devices in rest-adapter/routes/users.ts.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { suppliedFields } from '../../app/graphql/input-fields.ts';
import { PREFERENCE_KEYS, type Preferences } from '../notifications/index.ts';
import {
  changeCurrentDeviceSettings,
  deviceSettings,
  listMyDevices,
  registerCurrentDevice,
  updateMyDevice,
  type DeviceSettings,
  type MobileDeviceItem,
} from './mobile-devices.service.ts';

const MobileDeviceRef = builder.objectRef<MobileDeviceItem>('MobileDevice').implement({
  description: 'An installation of an app on one of your devices',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    deviceSimplyId: t.exposeString('simplyId'),
    installationId: t.exposeString('installationId'),
    platform: t.exposeString('platform', { description: 'ios, android or web' }),
    deviceName: t.exposeString('deviceName', { nullable: true }),
    appVersion: t.exposeString('appVersion', { nullable: true }),
    osVersion: t.exposeString('osVersion', { nullable: true }),
    pushEnabled: t.exposeBoolean('pushEnabled', { description: 'false: nothing is pushed to this device' }),
    activePushTokens: t.exposeInt('activePushTokens', { description: 'push tokens registered for this device and still in use' }),
    lastActiveAt: t.field({ type: 'DateTime', resolve: (d) => d.lastActiveAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
  }),
});

const RegistrationRef = builder.objectRef<{ created: boolean; device: MobileDeviceItem }>('MobileDeviceRegistration').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'true: registered now; false: already registered, its facts refreshed' }),
    device: t.field({ type: MobileDeviceRef, resolve: (r) => r.device }),
  }),
});

const PreferencesRef = builder.objectRef<Preferences>('DeviceNotificationPreferences').implement({
  description: 'Which notification categories this device lists, counts and receives pushes for',
  fields: (t) => Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, t.exposeBoolean(key)])),
});

const SettingsRef = builder.objectRef<DeviceSettings>('MobileDeviceSettings').implement({
  fields: (t) => ({
    deviceSimplyId: t.exposeString('deviceSimplyId'),
    installationId: t.exposeString('installationId'),
    pushEnabled: t.exposeBoolean('pushEnabled'),
    preferences: t.field({ type: PreferencesRef, resolve: (s) => s.preferences }),
  }),
});

const RegisterInput = builder.inputType('RegisterMobileDeviceInput', {
  fields: (t) => ({
    installationId: t.string({ required: true, description: 'chosen by the app, stable for the installation' }),
    platform: t.string({ required: true, description: 'ios, android or web' }),
    deviceName: t.string(),
    appVersion: t.string(),
    osVersion: t.string(),
  }),
});

const UpdateInput = builder.inputType('UpdateMobileDeviceInput', {
  fields: (t) => ({ deviceName: t.string({ description: 'null clears' }), pushEnabled: t.boolean() }),
});

const PreferencesInput = builder.inputType('DeviceNotificationPreferencesInput', {
  fields: (t) => Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, t.boolean()])),
});

const SettingsInput = builder.inputType('MobileDeviceSettingsInput', {
  fields: (t) => ({
    installationId: t.string({ required: true }),
    pushEnabled: t.boolean(),
    preferences: t.field({ type: PreferencesInput, description: 'only the keys given change' }),
  }),
});

builder.queryFields((t) => ({
  myMobileDevices: t.field({
    type: [MobileDeviceRef],
    description: 'Your devices, most recently active first',
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => listMyDevices(ctx),
  }),
  mobileDeviceSettings: t.field({
    type: SettingsRef,
    description: "One of your devices' push switch and notification preferences",
    authScopes: tier.signedInUser,
    args: { deviceSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deviceSettings(ctx, args.deviceSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  registerCurrentMobileDevice: t.field({
    type: RegistrationRef,
    description: 'Registers the installation the app runs as, or refreshes its facts',
    authScopes: tier.signedInUser,
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: (_root, args, ctx) => registerCurrentDevice(ctx, suppliedFields(args.input)),
  }),
  updateMyMobileDevice: t.field({
    type: MobileDeviceRef,
    authScopes: tier.signedInUser,
    args: { deviceSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (_root, args, ctx) => updateMyDevice(ctx, args.deviceSimplyId, suppliedFields(args.input)),
  }),
  updateCurrentMobileDeviceSettings: t.field({
    type: SettingsRef,
    description: 'The push switch and notification preferences of the installation the app runs as',
    authScopes: tier.signedInUser,
    args: { input: t.arg({ type: SettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      changeCurrentDeviceSettings(ctx, { ...suppliedFields(args.input), ...(args.input.preferences ? { preferences: suppliedFields(args.input.preferences) } : {}) }),
  }),
}));
