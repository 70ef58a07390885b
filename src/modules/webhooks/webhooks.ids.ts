// Identifiers of the webhooks area.
import { idKind } from '../../app/ids.ts';

export const webhookId = idKind('whk', 'webhook subscription');
export const webhookDeliveryId = idKind('dlv', 'webhook delivery');
