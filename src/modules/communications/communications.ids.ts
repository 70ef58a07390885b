// Identifiers of the communication history.
import { idKind } from '../../app/ids.ts';

export const deliveryId = idKind('cmd', 'constituent message delivery');
