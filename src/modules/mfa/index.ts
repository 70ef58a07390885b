// The public API of the mfa area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { type IssuedMfaChallenge, issueMfaChallenge, mfaEnabledFor, passMfaChallenge } from './mfa-challenge.service.ts';
export { oneSecondFactor, secondFactorFields } from './mfa.input.ts';
