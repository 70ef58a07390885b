// Identifiers of the collections area. Collections themselves (like records) use the plain
// XXXX-XXXX-XXXX form of src/app/ids.ts.
import { idKind } from '../../app/ids.ts';

export const dataFieldId = idKind('fld', 'data field');
