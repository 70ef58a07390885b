// Data wizards: multi-step data-entry forms, their authoring and their runs.
import { defineModule } from '../../app/module.ts';
import * as schema from './wizard.schema.ts';

export const wizardsModule = defineModule({ name: 'wizards', schema });
