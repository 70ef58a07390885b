// Errors of card-group administration carrying their documented codes (docs/api/data-collections.md "Card groups").
import { ApiError } from '../../app/errors.ts';
import { MAX_CARD_GROUPS_PER_COLLECTION } from './card-groups.input.ts';

/** A collection already has the most card groups it may have: a state, not a bad body, so 409 with a code of its own. */
export class CardGroupLimitError extends ApiError {
  constructor(collectionSimplyId: string) {
    super(409, 'CARD_GROUP_LIMIT_REACHED', `Collection ${collectionSimplyId} already has ${MAX_CARD_GROUPS_PER_COLLECTION} card groups, the most it may have: delete one first`);
  }
}
