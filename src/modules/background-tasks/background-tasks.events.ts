// The realtime topic of one task (graphql-ws `backgroundTaskProgress`): every status or progress
// change, published with pg_notify inside the writing transaction so it goes out only for a change
// that committed, to every instance. Polling `lastUpdatedAt` stays the documented way; this is for
// screens that follow one task live.
export interface BackgroundTaskEvent {
  backgroundTaskSimplyId: string;
  enumBackgroundTaskTypeId: string;
  status: string;
  progress: Record<string, unknown>;
  errorCount: number;
  unacknowledgedErrorCount: number;
  lastUpdatedAt: string;
  completedAt: string | null;
}

/** The topic id: one per task (the team's simplyId keeps ids of different teams apart). */
export function taskTopicId(teamSimplyId: string, taskSimplyId: string): string {
  return `${teamSimplyId}:${taskSimplyId}`;
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** `<team simplyId>:<task simplyId>` → changes of that task */
    backgroundTaskProgress: [string, BackgroundTaskEvent];
  }
}
