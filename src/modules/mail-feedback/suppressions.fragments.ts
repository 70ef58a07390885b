// The selections of the suppression list that other faces (the REST table, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const MESSAGE_SUPPRESSION = fragment('MessageSuppressionFields', 'MessageSuppression', 'address reason createdAt mailSimplyId outgoingMessageSimplyId');
