// Conversations: threaded two-way conversations with visitors and constituents, the team's inbox
// with read positions, followers, snoozes and merges, notifications of their activity and a
// realtime channel (docs/api/conversations.md).
import { defineModule } from '../../app/module.ts';
import * as conversationsSchema from './conversations.schema.ts';
import * as inboxSchema from './inbox.schema.ts';
import { conversationId, conversationMergeId, conversationMessageId } from './conversations.ids.ts';
import { conversationJobs } from './conversations.jobs.ts';

export const conversationsModule = defineModule({
  name: 'conversations',
  description: 'Threaded two-way conversations with visitors and constituents, and the team inbox: assignment, read state, followers, snoozes, merges and realtime activity.',
  schema: { conversationsSchema, inboxSchema },
  ids: [conversationId, conversationMessageId, conversationMergeId],
  jobs: (services) => conversationJobs(services),
  topics: ['conversationEvents'],
});
