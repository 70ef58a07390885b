// Identifiers of routing and staffing (canned responses are content templates: ctpl-…).
import { idKind } from '../../app/ids.ts';

export const assignmentRuleId = idKind('car', 'conversation assignment rule');
export const slaPolicyId = idKind('sla', 'SLA policy');
