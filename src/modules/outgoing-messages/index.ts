// The public API of the outgoing-messages area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
// The channel providers (SMS, WHATSAPP, FACEBOOK) are one registry: conversations send through them too.
export { channelAvailable } from './channel-providers.ts';
