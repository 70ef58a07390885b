// The first-party identity provider: password login, refresh and logout.
import { defineModule } from '../../app/module.ts';
import * as schema from './login.schema.ts';

export const identityModule = defineModule({ name: 'identity', schema });
