// The selections of saved layouts and catalog entries that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

export const WEBSITE_SAVED_LAYOUT = fragment(
  'WebsiteSavedLayoutFields',
  'WebsiteSavedLayout',
  'id savedLayoutSimplyId websiteSimplyId name category description designFormat syncMode contentJson contentRevision archivedAt createdAt updatedAt',
);

export const WEBSITE_CATALOG_LAYOUT = fragment('WebsiteCatalogLayoutFields', 'WebsiteCatalogLayout', 'catalogLayoutId name category description designFormat contentJson');
