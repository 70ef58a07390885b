// Identifiers of the card-groups area.
import { idKind } from '../../app/ids.ts';

/** a card group of a collection (`cgrp-XXXX-XXXX-XXXX`), the dataCardGroupSimplyId of the record routes */
export const dataCardGroupId = idKind('cgrp', 'data card group');
