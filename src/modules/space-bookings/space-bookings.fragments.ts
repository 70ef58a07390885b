// The selections of this area's types that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

/** a source connection */
export const SOURCE_CONNECTION = fragment('SvcSpacesSourceConnectionFields', 'SvcSpacesSourceConnection', 'id sourceConnectionSimplyId name mapping isConfigured createdAt updatedAt');
