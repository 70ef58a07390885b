// Identifiers of action tags' resolver domains.
import { idKind } from '../../app/ids.ts';

/** a resolver domain of the team's own (`atdm-XXXX-XXXX-XXXX`), the actionTagsDomainSimplyId */
export const actionTagDomainId = idKind('atdm', 'action-tag domain');
