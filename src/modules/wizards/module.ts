// Data wizards: multi-step data-entry forms, their authoring and their runs.
import { defineModule } from '../../app/module.ts';
import * as schema from './wizards.schema.ts';
import { dataWizardId, dataWizardInstanceId, dataWizardStepId, dataWizardStepTaskId } from './wizards.ids.ts';

export const wizardsModule = defineModule({
  name: 'wizards',
  description: 'Data wizards: multi-step data-entry forms, their steps and tasks, and running them.',
  schema,
  ids: [dataWizardId, dataWizardStepId, dataWizardStepTaskId, dataWizardInstanceId],
});
