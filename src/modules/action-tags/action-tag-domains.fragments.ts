// The selection of the action-tag domain type that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

export const ACTION_TAG_DOMAIN = fragment(
  'ActionTagDomainFields',
  'ActionTagDomain',
  'id domain status verification { recordType recordName recordValue } verifiedAt certificateStatus certificateExpiresAt certificateError lastCheckedAt lastCheckError createdAt',
);
