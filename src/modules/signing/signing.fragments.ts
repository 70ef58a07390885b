// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

const EVENT = 'eventType occurredAt ipAddress userAgent detail';
const SIGNER_SUMMARY = 'signingRequestSignerSimplyId roleKey name email signingOrder status signedAt';

/** What create answers: the state and one entry per signer. */
export const SIGNING_REQUEST_SUMMARY = fragment(
  'SigningRequestSummaryFields',
  'SigningRequest',
  `id signingRequestSimplyId status sourceDataCollectionSimplyId sourceDataRecordSimplyId expiresAt createdAt signers { ${SIGNER_SUMMARY} linkIssuedAt linkExpiresAt }`,
);

/** The list entry and the detail: signers with their audit trail, targets, hashes. */
export const SIGNING_REQUEST = fragment(
  'SigningRequestFields',
  'SigningRequest',
  `id signingRequestSimplyId status sourceDataCollectionSimplyId sourceDataRecordSimplyId reviewFieldSimplyIds signatureFieldSimplyIds
   fileTarget { fileFieldSimplyId fileSimplyId sourceFileVersionNumber } signingProfileSimplyId signingWizardSimplyId contentTemplateSimplyId
   consentText consentVersion signingBaseUrl expiresAt voidedAt voidReason completedAt sourceDocumentSha256 completedDocumentSha256
   signedFileSimplyId signedFileVersionNumber
   signers { ${SIGNER_SUMMARY} declinedAt declineReason typedName hasDrawnSignature consentVersionAccepted linkIssuedAt linkExpiresAt linkActive
     internalTeamUserLinkSimplyId linkedConstituentDataRecordSimplyId events { ${EVENT} } }
   targets { targetType dataFieldSimplyId state fileSimplyId versionNumber }
   events { ${EVENT} } createdAt updatedAt`,
);

export const SIGNING_RESEND = fragment(
  'SigningResendFields',
  'SigningResendResult',
  'signingRequestSimplyId status resentSignerSimplyIds links { signingRequestSignerSimplyId email linkIssuedAt linkExpiresAt }',
);

export const SIGNING_VOIDED = fragment('SigningVoidedFields', 'SigningRequest', 'signingRequestSimplyId status voidedAt voidReason');

export const SIGNING_SESSION = fragment(
  'SigningSessionFields',
  'SigningSession',
  'signingRequestSimplyId title status expiresAt canSign consentText consentVersion signer { signingRequestSignerSimplyId roleKey name email signingOrder status signedAt } reviewFields { dataFieldSimplyId label value }',
);

export const SIGNING_SETTINGS = fragment('SigningSettingsFields', 'SigningSettings', 'defaultExpirationDays effectiveExpirationDays platformDefaultExpirationDays updatedAt');
