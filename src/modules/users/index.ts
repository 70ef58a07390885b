// The public API of the users area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { installationIdSchema, type Platform, platformSchema } from './mobile-devices.input.ts';
export { changeDeviceSettings, currentUserId, deviceOfCurrentUser, type DeviceSelector, upsertCurrentDevice } from './user-devices.ts';
export { SESSION_USER } from './users.fragments.ts';
export { UserRef } from './users.schema.ts';
export { loadUser } from './users.service.ts';
