// The public API of the notifications area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { fullPreferences, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from './notification-categories.ts';
export { notify } from './notify.service.ts';
