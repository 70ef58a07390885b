// The public API of the mail-feedback area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { suppressedAmong } from './suppressions.sql.ts';
// mail to other areas' own addresses through the inbound listener (conversations' email)
export { inboundMailDomain, type InboundMail, type InboundMailHandler } from './inbound-mail-handlers.ts';
