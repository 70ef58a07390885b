// The first-party identity provider: password login, refresh and logout.
import { defineModule } from '../../app/module.ts';
import * as schema from './identity.schema.ts';

export const identityModule = defineModule({ name: 'identity', schema });
