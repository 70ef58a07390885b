// The public API of the constituent-auth area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
// Who a contact address names in a team, as sign-in matches it (conversations link their visitors so).
export { matchContact, matchContactPhone, type MatchedConstituent } from './contact-match.ts';
// Signing a constituent in where the platform serves pages itself (a website's access areas sign
// visitors in with a mailed code, keeping the tokens in cookies): the same steps and limits as the routes.
export { initiate as initiateConstituentSignIn } from './initiate.service.ts';
export { logout as logoutConstituent, refresh as refreshConstituentSession, verify as verifyConstituentSignIn, type ConstituentTokens } from './sessions.service.ts';
// The per-address limits of constituent sign-in, counted in PostgreSQL over every instance (space
// bookings' public link routes use the same counters).
export { takeFromWindow, type WindowLimit } from './rate-limit-counters.ts';
