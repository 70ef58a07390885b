// Team roles: data, field and feature permissions granted to members and API keys.
import { defineModule } from '../../app/module.ts';
import { teamRoleId } from './team-roles.ids.ts';
import * as schema from './team-roles.schema.ts';

export const teamRolesModule = defineModule({
  name: 'team-roles',
  description: 'Team roles: data, field and feature permissions granted to members and API keys.',
  schema,
  ids: [teamRoleId],
});
