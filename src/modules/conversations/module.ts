// Conversations: threaded two-way conversations with visitors and constituents, the team's inbox
// with read positions, followers, snoozes and merges, notifications of their activity and a
// realtime channel (docs/api/conversations.md).
import { defineModule } from '../../app/module.ts';
import * as conversationsSchema from './conversations.schema.ts';
import * as inboxSchema from './inbox.schema.ts';
import * as routingSchema from './routing.schema.ts';
import * as slaSchema from './sla.schema.ts';
import * as cannedResponsesSchema from './canned-responses.schema.ts';
import * as analyticsSchema from './analytics.schema.ts';
import * as aiSchema from './ai.schema.ts';
import { aiReplyJobs } from './ai-reply.jobs.ts';
import { assignmentRuleId, slaPolicyId } from './routing.ids.ts';
import { routingJobs } from './routing.jobs.ts';
import { conversationId, conversationMergeId, conversationMessageId } from './conversations.ids.ts';
import { conversationJobs } from './conversations.jobs.ts';
import { conversationEmailHandler } from './email-inbound.ts';
import * as emailSchema from './email.schema.ts';
import * as widgetsSchema from './widgets.schema.ts';
import * as widgetVisitorSchema from './widget-visitor.schema.ts';
import { conversationWidgetId, widgetVisitorId } from './widget.ids.ts';
import { widgetEndpoints } from './widget-endpoints.ts';
import { widgetVisitorTokens } from './widget-tokens.service.ts';
import { formConversationConsumer } from './form-conversations.ts';

export const conversationsModule = defineModule({
  name: 'conversations',
  description: 'Threaded two-way conversations with visitors and constituents, and the team inbox: assignment, read state, followers, snoozes, merges and realtime activity.',
  schema: { conversationsSchema, inboxSchema, emailSchema, widgetsSchema, widgetVisitorSchema, routingSchema, slaSchema, cannedResponsesSchema, aiSchema, analyticsSchema },
  ids: [conversationId, conversationMessageId, conversationMergeId, conversationWidgetId, widgetVisitorId, assignmentRuleId, slaPolicyId],
  jobs: (services) => [...conversationJobs(services), ...routingJobs(services), ...aiReplyJobs(services)],
  // mail to reply and inbox addresses arrives through mail-feedback's inbound listener (email-inbound.ts)
  services: (services) => {
    services.inboundMail.register(conversationEmailHandler(services));
    // chat widget visitors' tokens (svc_wvt_…) are credentials of their own kind (widget-tokens.service.ts)
    services.authenticator.addTokenKind(widgetVisitorTokens(services));
    return {};
  },
  // the chat widget's loader, page and files (widget-endpoints.ts)
  httpEndpoints: widgetEndpoints,
  // wizard runs completed through external-access links become FORM messages (form-conversations.ts)
  outboxConsumers: (services) => ({ 'conversation-forms': formConversationConsumer(services) }),
  topics: ['conversationEvents'],
});
