// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const TEAM_ROLE = fragment(
  'TeamRoleFields',
  'TeamRole',
  `id teamRoleSimplyId name dataFullAccess
   dataPermissions { dataCollectionSimplyId level }
   fieldPermissions { dataFieldSimplyId level }
   featurePermissions { name level }
   createdAt updatedAt`,
);
