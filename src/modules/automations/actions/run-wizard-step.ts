// RUN_WIZARD_STEP: the wizard (or one of its steps) on the run's record, as the automation, through
// the wizard runner (src/modules/wizards/wizard-runner.ts); an unsuccessful run fails the action.
// A successful run is a keyed effect (src/app/effects.ts): the action's idempotency key is claimed
// in the run's transaction, so a run repeated after its worker died changes nothing and is answered
// with the first run's result. A failed run claims nothing, so the action's retries run it again.
import { runWizard } from '../../wizards/index.ts';
import { type ActionHandler, requireRecord } from './action-run.ts';
import { WizardFailedError } from '../automations.errors.ts';

export const runWizardStep: ActionHandler = async (run) => {
  const record = requireRecord(run, 'RUN_WIZARD_STEP');
  const config = run.config as { dataWizardSimplyId: string; dataWizardStepSimplyId?: string; formData?: Record<string, unknown> };
  const result = await runWizard(run.services, {
    teamId: run.team.id,
    dataWizardSimplyId: config.dataWizardSimplyId,
    dataRecordSimplyId: record.simplyId,
    ...(config.formData ? { formData: config.formData } : {}),
    ...(config.dataWizardStepSimplyId ? { dataWizardStepSimplyId: config.dataWizardStepSimplyId } : {}),
    principal: run.ctx.principal,
    source: 'JOB',
    requestId: run.executionSimplyId,
    automationDepth: run.depth,
    effectKey: run.idempotencyKey,
  });
  if (!result.success) throw new WizardFailedError(String(config.dataWizardSimplyId), result.message);
};
