// Identifiers of the messages area.
import { idKind } from '../../app/ids.ts';

export const messageTemplateId = idKind('mtp', 'message template');
