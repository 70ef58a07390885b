// The selection of conversation analytics that other faces (the REST table, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const CONVERSATION_ANALYTICS = fragment(
  'ConversationAnalyticsFields',
  'ConversationAnalytics',
  `from to timeZone granularity channel assignedUserId created
   byChannel { channel count } byStatus { status count } series { periodStart created }
   firstResponseTime { count p50 p90 p95 } resolutionTime { count p50 p90 p95 }
   sla { firstResponse { met breached hitRate } resolution { met breached hitRate } }
   agents { userSimplyId firstName lastName email assigned resolved firstResponseMedian resolutionMedian openNow }`,
);
