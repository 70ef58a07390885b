// Running a wizard (or one of its steps) on a record, server-side. Used by
// POST /v1/data-wizards/{id}/execute and by the automations' RUN_WIZARD_STEP action.
// Filled in by the wizards capability (issue 4); this file fixes the contract.
import type { Principal } from '../auth/principal.ts';
import type { RequestSource, Services } from '../graphql/context.ts';

export interface RunWizardInput {
  teamId: bigint;
  dataWizardSimplyId: string;
  dataRecordSimplyId: string;
  /** keyed by dataFieldSimplyId; validated by field type */
  formData?: Record<string, unknown>;
  /** run only this step (RUN_WIZARD_STEP); default: every step from firstStepId on */
  dataWizardStepSimplyId?: string;
  /** who runs it: the caller, or the automation's acting principal */
  principal: Principal;
  source: RequestSource;
  requestId?: string;
  /** automation loop guard: how many automation-caused writes led here */
  automationDepth?: number;
}

export interface RunWizardResult {
  success: boolean;
  message: string;
  dataWizardSimplyId: string;
  dataRecordSimplyId: string;
  dataWizardInstanceSimplyId: string;
}

export async function runWizard(_services: Services, _input: RunWizardInput): Promise<RunWizardResult> {
  throw new Error('data wizards not built yet');
}
