// What an action handler gets: the execution's acting context, the record it works on (as it is
// now: an UPDATE_FIELDS earlier in the run is visible to later actions) and its own config.
import type { TeamRef } from '../../../app/auth/principal.ts';
import type { CollectionDefinition, FieldDefinition, RecordRow, TeamSchema } from '../../../kernel/index.ts';
import type { RequestContext, Services } from '../../../app/context.ts';
import { ApiError } from '../../../app/errors.ts';
import type { PaymentProvider } from '../payments/payment-provider.ts';
import { ActionError, NoRecordError } from '../automations.errors.ts';

export interface ActionRun {
  services: Services;
  /** the automation's acting context (automation-principal.ts) */
  ctx: RequestContext;
  team: TeamRef;
  schema: TeamSchema;
  automationSimplyId: string;
  executionSimplyId: string;
  /** depth the writes of this run carry (loop guard) */
  depth: number;
  collection: CollectionDefinition | null;
  record: RecordRow | null;
  config: Record<string, unknown>;
  /** `<execution>:<action>:<record>`: one effect per key (mail, notification, payment) */
  idempotencyKey: string;
  payments: PaymentProvider;
}

export interface ActionResult {
  /** the record after this action changed it */
  record?: RecordRow;
}

export type ActionHandler = (run: ActionRun) => Promise<ActionResult | void>;

/** The code and message an execution log entry records for a failure (ApiErrors keep their code). */
export function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError || error instanceof ActionError) return { code: error.code, message: error.message.slice(0, 1000) };
  return { code: 'ACTION_FAILED', message: (error instanceof Error ? error.message : String(error)).slice(0, 1000) };
}

export function requireRecord(run: ActionRun, what: string): RecordRow {
  if (!run.record) throw new NoRecordError(what);
  return run.record;
}

export function fieldsOf(run: ActionRun): FieldDefinition[] {
  return run.collection ? run.schema.fieldsOf(run.collection) : [];
}
