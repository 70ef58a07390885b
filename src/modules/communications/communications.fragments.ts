// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

const SAFE_FIELDS = `id constituentMessageDeliverySimplyId constituentSimplyId outgoingMessageSimplyId sourceType sourceSimplyId channelId currentStateId
  createdAt stateChangedAt completeness completenessGapReason sensitivity hasProtectedContent attachmentCount`;
const PAGE_FACTS = 'nextCursor limit recordState requestedDataRecordSimplyId survivingDataRecordSimplyId mergedConstituentSimplyIds';

export const COMMUNICATION = fragment('ConstituentCommunicationFields', 'ConstituentCommunication', SAFE_FIELDS);
export const PROTECTED_COMMUNICATION = fragment(
  'ProtectedConstituentCommunicationFields',
  'ProtectedConstituentCommunication',
  `${SAFE_FIELDS} destination senderAddress renderedSubject renderedText renderedHtml
   events { stateId detail occurredAt } attachments { fileSimplyId versionNumber filename contentType sizeBytes }`,
);
export const COMMUNICATION_PAGE = fragment('ConstituentCommunicationPageFields', 'ConstituentCommunicationPage', selection`nodes { ${COMMUNICATION} } ${PAGE_FACTS}`);
export const PROTECTED_COMMUNICATION_PAGE = fragment(
  'ProtectedConstituentCommunicationPageFields',
  'ProtectedConstituentCommunicationPage',
  selection`nodes { ${PROTECTED_COMMUNICATION} } ${PAGE_FACTS}`,
);
