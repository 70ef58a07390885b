// GraphQL face of the communication history (docs/api/communications.md). REST:
// rest-adapter/routes/communications.ts. The list and its deprecated alias expose only the
// integration-safe projection; the protected snapshot is a type of its own, served to signed-in
// team users only (tier.protectedHistory), so no selection on the list can reach it.
import { tier } from '../../app/auth/tiers.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { DELIVERY_CHANNELS, DELIVERY_STATES, HISTORY_LIMITS } from './communications.input.ts';
import {
  listCommunications,
  listProtectedCommunications,
  type HistoryItem,
  type HistoryPage,
  type ProtectedHistoryItem,
} from './communications.service.ts';
import type { DeliveryEventRow } from './communications.sql.ts';
import type { SentAttachment } from './record-delivery.ts';

const FEATURE = 'CONSTITUENT_MESSAGE_HISTORY_VIEW';

export const CommunicationChannelEnum = builder.enumType('CommunicationChannel', { values: DELIVERY_CHANNELS });
export const CommunicationStateEnum = builder.enumType('CommunicationState', { values: DELIVERY_STATES });
const CompletenessEnum = builder.enumType('CommunicationCompleteness', {
  values: {
    EXACT: { description: 'the row holds everything that was sent' },
    PARTIAL: { description: 'part of what was sent was not retained (see completenessGapReason)' },
    METADATA_ONLY: { description: 'only the facts of the delivery were retained, no content (see completenessGapReason)' },
  },
});
const SensitivityEnum = builder.enumType('CommunicationSensitivity', {
  values: {
    STANDARD: { description: 'nothing in the content needed masking' },
    SENSITIVE: { description: 'the content carried a reusable credential (a code, a sign-in or unsubscribe link), masked before it was stored' },
  },
});
const RecordStateEnum = builder.enumType('CommunicationRecordState', { values: ['ACTIVE', 'ARCHIVED', 'DELETED'] as const });

/** The integration-safe fields, shared by the list item and the protected item. */
function safeFields<T extends HistoryItem>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>) {
  return {
    id: t.string({ description: 'the delivery simplyId (constituentMessageDeliverySimplyId)', resolve: (i) => i.row.simplyId }),
    constituentMessageDeliverySimplyId: t.string({ resolve: (i) => i.row.simplyId }),
    constituentSimplyId: t.string({ description: 'the data record (constituent) the delivery went to', resolve: (i) => i.constituentSimplyId }),
    outgoingMessageSimplyId: t.string({ nullable: true, description: 'the outgoing message it was part of, if any', resolve: (i) => i.row.outgoingMessageSimplyId }),
    sourceType: t.string({ description: 'what sent it: MESSAGE_COMPOSER, AUTOMATION, WIZARD, CONSTITUENT_AUTHENTICATION, CONVERSATION, SYSTEM (more may be added)', resolve: (i) => i.row.sourceType }),
    sourceSimplyId: t.string({ nullable: true, description: 'the sender of that kind (e.g. the automation)', resolve: (i) => i.row.sourceSimplyId }),
    channelId: t.field({ type: CommunicationChannelEnum, resolve: (i) => i.row.channelId as never }),
    currentStateId: t.field({ type: CommunicationStateEnum, resolve: (i) => i.row.currentStateId as never }),
    createdAt: t.field({ type: 'DateTime', description: 'when the send was queued', resolve: (i) => i.row.createdAt }),
    stateChangedAt: t.field({ type: 'DateTime', description: 'when currentStateId last changed', resolve: (i) => i.row.stateChangedAt }),
    completeness: t.field({ type: CompletenessEnum, resolve: (i) => i.row.completeness as never }),
    completenessGapReason: t.string({ nullable: true, description: 'why an incomplete row is incomplete (REST leaves it out when null)', resolve: (i) => i.row.completenessGapReason }),
    sensitivity: t.field({ type: SensitivityEnum, resolve: (i) => i.row.sensitivity as never }),
    hasProtectedContent: t.boolean({ description: 'the protected snapshot holds content or attachments', resolve: (i) => i.row.hasProtectedContent }),
    attachmentCount: t.int({ resolve: (i) => i.row.attachmentCount }),
  };
}

const CommunicationRef = builder.objectRef<HistoryItem>('ConstituentCommunication').implement({
  description: 'One delivery to a constituent: the integration-safe facts only (never content, addresses or attachments).',
  fields: (t) => safeFields(t),
});

const EventRef = builder.objectRef<DeliveryEventRow>('ConstituentCommunicationEvent').implement({
  description: 'A lifecycle step of a delivery.',
  fields: (t) => ({
    stateId: t.field({ type: CommunicationStateEnum, resolve: (e) => e.stateId as never }),
    detail: t.string({ nullable: true, description: 'the transport’s or the receiving side’s words, when it gave any', resolve: (e) => e.detail }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
  }),
});

const AttachmentRef = builder.objectRef<SentAttachment>('ConstituentCommunicationAttachment').implement({
  description: 'A file version that was attached to the delivery.',
  fields: (t) => ({
    fileSimplyId: t.exposeString('fileSimplyId'),
    versionNumber: t.exposeInt('versionNumber'),
    filename: t.exposeString('filename'),
    contentType: t.exposeString('contentType'),
    sizeBytes: t.exposeInt('sizeBytes'),
  }),
});

const ProtectedCommunicationRef = builder.objectRef<ProtectedHistoryItem>('ProtectedConstituentCommunication').implement({
  description: 'One delivery with its protected snapshot: exact addresses, the content as sent (credentials masked), lifecycle and attachments.',
  fields: (t) => ({
    ...safeFields(t),
    destination: t.string({ nullable: true, description: 'the exact address or number it was sent to', resolve: (i) => i.row.destination }),
    senderAddress: t.string({ nullable: true, resolve: (i) => i.row.senderAddress }),
    renderedSubject: t.string({ nullable: true, resolve: (i) => i.row.renderedSubject }),
    renderedText: t.string({ nullable: true, resolve: (i) => i.row.renderedText }),
    renderedHtml: t.string({ nullable: true, resolve: (i) => i.row.renderedHtml }),
    events: t.field({ type: [EventRef], description: 'oldest first', resolve: (i) => i.events }),
    attachments: t.field({ type: [AttachmentRef], resolve: (i) => i.row.attachments }),
  }),
});

function pageType<T>(name: string, node: typeof CommunicationRef | typeof ProtectedCommunicationRef) {
  return builder.objectRef<HistoryPage<T>>(name).implement({
    description: 'A page of a communication history, newest first, with the facts of the record it belongs to.',
    fields: (t) => ({
      nodes: t.field({ type: [node] as never, resolve: (p) => p.nodes as never }),
      nextCursor: t.string({ nullable: true, description: 'pass as cursor for the next (older) page; null at the end', resolve: (p) => p.nextCursor }),
      limit: t.int({ resolve: (p) => p.limit }),
      recordState: t.field({ type: RecordStateEnum, description: 'the record’s state: its history stays when it is archived or deleted', resolve: (p) => p.recordState }),
      requestedDataRecordSimplyId: t.string({ resolve: (p) => p.requestedDataRecordSimplyId }),
      survivingDataRecordSimplyId: t.string({ description: 'records are never merged: the requested record', resolve: (p) => p.survivingDataRecordSimplyId }),
      mergedConstituentSimplyIds: t.stringList({ description: 'records merged into this one: always empty (records are never merged)', resolve: (p) => p.mergedConstituentSimplyIds }),
    }),
  });
}

const CommunicationPageRef = pageType<HistoryItem>('ConstituentCommunicationPage', CommunicationRef);
const ProtectedCommunicationPageRef = pageType<ProtectedHistoryItem>('ProtectedConstituentCommunicationPage', ProtectedCommunicationRef);

const LIMIT = `1-${HISTORY_LIMITS.maxLimit}, default ${HISTORY_LIMITS.defaultLimit}`;

builder.queryFields((t) => {
  const args = () => ({
    dataRecordSimplyId: t.arg.string({ required: true }),
    limit: t.arg.int({ description: LIMIT }),
    cursor: t.arg.string({ description: 'nextCursor of the previous page' }),
    // strings, so a wrong value is the documented 400 naming the field on both faces
    channelId: t.arg.string({ description: DELIVERY_CHANNELS.join(', ') }),
    currentStateId: t.arg.string({ description: DELIVERY_STATES.join(', ') }),
  });
  type Args = { dataRecordSimplyId: string; limit?: number | null; cursor?: string | null; channelId?: string | null; currentStateId?: string | null };
  const split = ({ dataRecordSimplyId, ...rest }: Args) => [dataRecordSimplyId, rest] as const;
  const NEEDS = 'Needs records:read (scoped tokens), CONSTITUENT_MESSAGE_HISTORY_VIEW and read access to the record.';
  return {
    dataRecordCommunications: t.field({
      type: CommunicationPageRef,
      description: `The constituent’s communication history, newest first: the integration-safe projection. ${NEEDS}`,
      authScopes: tier.standardScopedFeature('records:read', FEATURE, 'VIEW'),
      args: args(),
      resolve: (_root, a, ctx) => listCommunications(ctx, ...split(a)),
    }),
    dataRecordOutgoingMessages: t.field({
      type: CommunicationPageRef,
      description: `Deprecated alias of dataRecordCommunications (same projection and arguments). ${NEEDS}`,
      deprecationReason: 'Use dataRecordCommunications',
      authScopes: tier.standardScopedFeature('records:read', FEATURE, 'VIEW'),
      args: args(),
      resolve: (_root, a, ctx) => listCommunications(ctx, ...split(a)),
    }),
    dataRecordProtectedCommunications: t.field({
      type: ProtectedCommunicationPageRef,
      description: `The history with its protected snapshots, newest first. Signed-in team users only (API keys, session tokens: 403 PROTECTED_HISTORY_AUTH_REQUIRED). ${NEEDS}`,
      authScopes: tier.protectedHistory(FEATURE, 'VIEW'),
      args: args(),
      resolve: (_root, a, ctx) => listProtectedCommunications(ctx, ...split(a)),
    }),
  };
});
