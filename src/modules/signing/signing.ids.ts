// Identifiers of the signing area.
import { idKind } from '../../app/ids.ts';

export const signingRequestId = idKind('sgr', 'signing request');
export const signingSignerId = idKind('sgs', 'signing request signer');
