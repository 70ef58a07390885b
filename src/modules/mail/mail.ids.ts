// Identifiers of the mail area.
import { idKind } from '../../app/ids.ts';

export const mailId = idKind('mail', 'mail message');
