// Identifiers of the notifications area.
import { idKind } from '../../app/ids.ts';

export const notificationId = idKind('ntf', 'notification');
export const deviceTokenId = idKind('dtk', 'device push token');
