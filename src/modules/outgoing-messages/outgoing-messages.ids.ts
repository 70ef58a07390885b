// Identifiers of the outgoing-messages area. The same id serves /v1/messages/{messageSimplyId}
// and /v1/outgoing-messages/{outgoingMessageSimplyId}.
import { idKind } from '../../app/ids.ts';

export const outgoingMessageId = idKind('msg', 'outgoing message');
