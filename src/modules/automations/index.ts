// The public API of the automations area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { exportAutomations } from './automation-export.ts';
export { automationId } from './automations.ids.ts';
export {
  checkOutcomeAutomation,
  findAutomationBySimplyId,
  OUTCOME_TRIGGERS,
  setAutomationEnabled,
  wizardOutcomeAutomations,
  writeOutcomeAutomation,
  type CheckedOutcome,
  type OutcomeAutomation,
  type OutcomeKind,
} from './wizard-outcomes.ts';
