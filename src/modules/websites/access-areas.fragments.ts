// The selection of access areas that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

export const WEBSITE_ACCESS_AREA = fragment(
  'WebsiteAccessAreaFields',
  'WebsiteAccessArea',
  'id accessAreaSimplyId websiteSimplyId name rootPageSimplyIds rootPages { pageSimplyId title path } admits signInMessage enabled createdAt updatedAt',
);
