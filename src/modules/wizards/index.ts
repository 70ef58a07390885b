// The public API of the wizards area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { exportWizards } from './wizard-export.ts';
export { runWizard } from './wizard-runner.ts';
export { dataWizardId, dataWizardStepId } from './wizards.ids.ts';
// conversations turns completed runs of external-access links into FORM messages (its form-*.ts)
export { loadWizardConfig, type WizardConfig } from './wizard-config.ts';
export { WIZARD_COMPLETED, type CompletionData } from './wizard-events.ts';
export { submittedRun, type SubmittedRun } from './wizard-run-answers.ts';
