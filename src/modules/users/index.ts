// Users: the signed-in person (`users/me`) and team member administration. Their ids (`usr`, and
// `tul` for memberships) are core kinds in src/app/ids.ts: the authenticator reads them.
import { defineModule } from '../../app/module.ts';
import * as schema from './users.schema.ts';
import { deviceId, recentVisitId } from './users.ids.ts';

export const usersModule = defineModule({
  name: 'users',
  description: 'The signed-in user (`users/me`) and the users of a team.',
  schema,
  ids: [deviceId, recentVisitId],
});
