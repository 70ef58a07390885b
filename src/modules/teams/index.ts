// The public API of the teams area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { bootstrapTeam } from './bootstrap.service.ts';
