// Data views: saved, filtered and sorted windows onto a collection.
import { defineModule } from '../../app/module.ts';
import * as schema from './view.schema.ts';

export const viewsModule = defineModule({ name: 'views', schema });
