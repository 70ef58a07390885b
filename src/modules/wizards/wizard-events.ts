// The wizard-completion domain event (Document 1 §2.7 triggers WIZARD_COMPLETED and
// WIZARD_COMPLETION_FAILED; §6 rule 6). Its id is stable per run, `wizard:<instanceSimplyId>:completion:v1`,
// so the outbox row is unique per instance (DomainEvent.eventId is unique) and consumers claim by
// it: the automations keep one execution per (automation, event id); see docs/api/data-wizards.md.
import type pg from 'pg';
import type { Principal } from '../../app/auth/principal.ts';
import { activeStoredTrace } from '../../app/telemetry/stored-trace.ts';

export const WIZARD_COMPLETED = 'WIZARD_COMPLETED';
export const WIZARD_COMPLETION_FAILED = 'WIZARD_COMPLETION_FAILED';

export function completionEventId(instanceSimplyId: string): string {
  return `wizard:${instanceSimplyId}:completion:v1`;
}

export interface RunErrorDetail {
  dataWizardStepSimplyId?: string;
  dataWizardStepTaskSimplyId?: string;
  dataFieldSimplyId?: string;
  /** the input path, formData.<dataFieldSimplyId>, when the value came from formData */
  field?: string;
  message: string;
}

export interface CompletionData {
  dataWizardSimplyId: string;
  dataWizardInstanceSimplyId: string;
  dataRecordSimplyId: string;
  dataCollectionSimplyId: string | null;
  /** set when only one step ran (the automations' RUN_WIZARD_STEP) */
  dataWizardStepSimplyId?: string;
  success: boolean;
  message: string;
  errorDetails?: RunErrorDetail[];
}

export interface CompletionActor {
  principal: Principal;
  automationDepth?: number;
}

/** Inserts the completion event in the caller's transaction and returns its id. */
export async function insertCompletionEvent(db: pg.PoolClient, teamId: bigint, collectionId: bigint | null, data: CompletionData, actor: CompletionActor): Promise<string> {
  const eventId = completionEventId(data.dataWizardInstanceSimplyId);
  const eventType = data.success ? WIZARD_COMPLETED : WIZARD_COMPLETION_FAILED;
  const p = actor.principal;
  const payload = {
    eventType,
    eventId,
    occurredAt: new Date().toISOString(),
    data,
    actor: {
      kind: p.kind,
      id: p.credentialId,
      userSimplyId: p.userSimplyId,
      ...(actor.automationDepth !== undefined ? { automationDepth: actor.automationDepth } : {}),
    },
  };
  // the run's trace goes with the event: the automations it triggers continue it
  const trace = activeStoredTrace();
  await db.query(
    `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", "collectionId", payload, traceparent, tracestate) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
    [teamId, eventId, eventType, collectionId, JSON.stringify(payload), trace.traceparent, trace.tracestate],
  );
  return eventId;
}
