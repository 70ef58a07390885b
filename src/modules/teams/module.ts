// Teams: bootstrapping a team (CLI, tests) and the team-wide realtime event stream. The team id
// kind (`tm`) is a core kind in src/app/ids.ts: team selection reads it.
import { defineModule } from '../../app/module.ts';
import * as schema from './teams.schema.ts';

export const teamsModule = defineModule({
  name: 'teams',
  description: 'Teams and their realtime event stream.',
  schema,
  topics: ['teamEvents'],
});
