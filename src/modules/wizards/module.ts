// Data wizards: multi-step data-entry forms, their authoring and their runs, and the forms that
// external-access links open for people outside the team.
import { defineModule } from '../../app/module.ts';
import * as schema from './wizards.schema.ts';
import { externalFormEndpoints } from './wizard-external-form-endpoint.ts';
import { dataWizardExternalLinkId, dataWizardId, dataWizardInstanceId, dataWizardStepId, dataWizardStepTaskId } from './wizards.ids.ts';

export const wizardsModule = defineModule({
  name: 'wizards',
  description: 'Data wizards: multi-step data-entry forms, their steps and tasks, and running them.',
  schema,
  ids: [dataWizardId, dataWizardStepId, dataWizardStepTaskId, dataWizardInstanceId, dataWizardExternalLinkId],
  // the forms of external-access links (/wizard-links/<secret>)
  httpEndpoints: externalFormEndpoints,
});
