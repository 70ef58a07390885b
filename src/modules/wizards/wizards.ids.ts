// Identifiers of the data-wizards area.
import { idKind } from '../../app/ids.ts';

export const dataWizardId = idKind('wiz', 'data wizard');
export const dataWizardStepId = idKind('wst', 'data wizard step');
export const dataWizardStepTaskId = idKind('wtk', 'data wizard step task');
/** one run of a wizard on a record (the completion event's stable key) */
export const dataWizardInstanceId = idKind('wri', 'data wizard instance');
/** an external-access link: a person outside the team fills in the wizard for one record */
export const dataWizardExternalLinkId = idKind('wxl', 'data wizard external-access link');
