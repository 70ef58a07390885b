// The public API of the webhooks area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { checkTargetAtCreation, parseTargetUrl, pinnedLookup, resolveTarget, TargetRefused, TargetUnresolved } from './target-guard.ts';
