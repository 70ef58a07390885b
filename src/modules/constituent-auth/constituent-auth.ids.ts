// Identifiers of the constituent-auth area.
import { idKind } from '../../app/ids.ts';

export const constituentVerificationId = idKind('cvf', 'constituent verification');
export const constituentSessionId = idKind('csn', 'constituent session');
