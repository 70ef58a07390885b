// Identifiers of the identity area.
import { idKind } from '../../app/ids.ts';

export const userSessionId = idKind('ses', 'sign-in session');
