// Users: the signed-in person (`users/me`) and team member administration. Their ids (`usr`, and
// `tul` for memberships) are core kinds in src/app/ids.ts: the authenticator reads them.
import { defineModule } from '../../app/module.ts';
import * as usersSchema from './users.schema.ts';
import * as devicesSchema from './mobile-devices.schema.ts';
import * as visitsSchema from './recent-visits.schema.ts';
import * as sessionsSchema from './user-sessions.schema.ts';
import { deviceId, recentVisitId } from './users.ids.ts';

export const usersModule = defineModule({
  name: 'users',
  description: 'The signed-in user (`users/me`) with their devices, recent visits and sign-in sessions, and the users of a team.',
  schema: { usersSchema, devicesSchema, visitsSchema, sessionsSchema },
  ids: [deviceId, recentVisitId],
});
