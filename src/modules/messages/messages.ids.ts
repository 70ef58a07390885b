// Identifiers of the messages area.
import { idKind } from '../../app/ids.ts';

export const messageTemplateId = idKind('mtp', 'message template');
export const mailDomainId = idKind('mdm', 'mail domain');
export const messageSenderId = idKind('msn', 'message sender');
