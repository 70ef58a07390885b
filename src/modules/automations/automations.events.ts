// The realtime topic of automation executions (graphql-ws `automationExecutions`).

/** An automation execution was queued, started or finished (src/modules/automations). */
export interface AutomationExecutionEvent {
  automationSimplyId: string;
  executionSimplyId: string;
  triggerType: string;
  status: string;
  recordsProcessed: number;
  recordsFailed: number;
  startedAt: string | null;
  completedAt: string | null;
  executionDurationMs: number | null;
  errorDetails: unknown;
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** team simplyId → automation execution updates of that team */
    automationExecutions: [string, AutomationExecutionEvent];
  }
}
