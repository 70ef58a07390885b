// The public API of the action-tags area: all another area may import from it
// (test/app/module-structure.test.ts). Its manifest is module.ts.
export { actionTagId } from './action-tags.ids.ts';
export { readActionTagPlan, planFeatures, type ActionTagPlan, type ActionTagFeatures } from './action-tag-plan.ts';
