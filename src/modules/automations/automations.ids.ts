// Identifiers of the automations area (payment charges included: only CHARGE_PAYMENT makes them).
import { idKind } from '../../app/ids.ts';

export const automationId = idKind('aut', 'automation');
export const automationActionId = idKind('act', 'automation action');
export const automationExecutionId = idKind('exe', 'automation execution');
export const paymentChargeId = idKind('pay', 'payment charge');
