// Identifiers of the team-roles area.
import { idKind } from '../../app/ids.ts';

export const teamRoleId = idKind('role', 'team role');
