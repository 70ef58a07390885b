// Identifiers of the conversations area.
import { idKind } from '../../app/ids.ts';

export const conversationId = idKind('cnv', 'conversation');
export const conversationMessageId = idKind('cvm', 'conversation message');
export const conversationMergeId = idKind('cmg', 'conversation merge');
