// Teams: bootstrapping a team (CLI, tests) and the team-wide realtime event stream.
import { defineModule } from '../../app/module.ts';
import * as schema from './team-events.schema.ts';

export const teamsModule = defineModule({ name: 'teams', schema, topics: ['teamEvents'] });
