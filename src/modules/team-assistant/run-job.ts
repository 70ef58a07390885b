// The queue a run is worked on: one pg-boss job per run, keyed by the run's simplyId, carrying ids only.
export const RUN_ASSISTANT = 'team-assistant.run';

export interface RunAssistantJob {
  teamId: string;
  runId: string;
}
