// The selections of action tags that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

export const ACTION_TAG = fragment(
  'ActionTagFields',
  'ActionTag',
  'id simplyActionTagSimplyId name notes status actionType actionUrl destinationDomain linkPageSettings qrCodeSettings labelSimplyIds dataWizardSimplyId dataRecordSimplyId dataCollectionSimplyId requireFreshScan publicUrl lifetimeScans lastScannedAt createdAt updatedAt',
);

export const ACTION_TAG_CAPABILITIES = fragment('ActionTagCapabilitiesFields', 'ActionTagCapabilities', 'contract billing band managedCapacity tagsInUse domainAllowance planIsDefault retention features');
