// Identifiers the users area mints (user and membership ids are core kinds in src/app/ids.ts).
import { idKind } from '../../app/ids.ts';

export const deviceId = idKind('dev', 'mobile device');
export const recentVisitId = idKind('vis', 'recent visit');
