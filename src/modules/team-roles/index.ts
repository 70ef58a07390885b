// Team roles: data, field and feature permissions granted to members and API keys.
import { defineModule } from '../../app/module.ts';
import * as schema from './team-role.schema.ts';

export const teamRolesModule = defineModule({ name: 'team-roles', schema });
