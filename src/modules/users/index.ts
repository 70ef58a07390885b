// Users: the signed-in person (`users/me`) and team member administration.
import { defineModule } from '../../app/module.ts';
import * as schema from './user.schema.ts';

export const usersModule = defineModule({ name: 'users', schema });
