// The outbox consumer that turns domain events into executions (Document 1 §6: record writes
// fire RECORD_CREATED, RECORD_UPDATED and FIELD_VALUE_CHANGED; wizard completion fires
// WIZARD_COMPLETED / WIZARD_COMPLETION_FAILED). It runs inside the dispatch transaction: each
// matching enabled automation gets a claim (one per automation and event, whatever the
// redeliveries) and its job, committed with the "dispatched" mark.
//
// Loop guard: events written by an automation execution at depth d carry actor.automationDepth
// d + 1; an event deeper than AUTOMATION_MAX_DEPTH starts nothing and is logged as a SKIPPED
// execution instead. An automation's own record update never triggers that same automation.
// DATA_RECORDS_BULK_SYNCED is ignored: every record of a batch has its own event already.
import type { DomainEventConsumer, DomainEventRow } from '../../app/outbox.ts';
import type { TeamSchema } from '../../kernel/index.ts';
import type { Services } from '../../app/context.ts';
import type { TriggerType } from './automations.input.ts';
import { type Claim, claimExecutions } from './execution-claims.ts';

const RECORD_CREATED = 'DATA_RECORD_CREATED';
const RECORD_UPDATED = 'DATA_RECORD_UPDATED';
const WIZARD_COMPLETED = 'WIZARD_COMPLETED';
const WIZARD_COMPLETION_FAILED = 'WIZARD_COMPLETION_FAILED';

interface AutomationRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  teamSimplyId: string;
  collectionId: bigint | null;
  triggerType: TriggerType;
  triggerConfig: Record<string, unknown>;
}

interface EventActor {
  kind?: string;
  id?: string | null;
  automationDepth?: number;
}

/** Which trigger types an event can fire. */
function triggerTypesOf(event: DomainEventRow): TriggerType[] {
  switch (event.eventType) {
    case RECORD_CREATED:
      return ['RECORD_CREATED'];
    case RECORD_UPDATED:
      return ['RECORD_UPDATED', 'FIELD_VALUE_CHANGED'];
    case WIZARD_COMPLETED:
    case WIZARD_COMPLETION_FAILED: {
      const success = event.payload?.data?.success;
      const succeeded = typeof success === 'boolean' ? success : event.eventType === WIZARD_COMPLETED;
      return [succeeded ? 'WIZARD_COMPLETED' : 'WIZARD_COMPLETION_FAILED'];
    }
    default:
      return [];
  }
}

function matches(event: DomainEventRow, automation: AutomationRow, schema: TeamSchema | undefined): boolean {
  const data = event.payload?.data ?? {};
  if (automation.triggerType === 'WIZARD_COMPLETED' || automation.triggerType === 'WIZARD_COMPLETION_FAILED') {
    return typeof data.dataWizardSimplyId === 'string' && data.dataWizardSimplyId === automation.triggerConfig.dataWizardSimplyId;
  }
  // record triggers: the automation's collection, or a SMART collection over the record's collection
  // (membership is checked when the execution runs)
  if (automation.collectionId === null || event.collectionId === null) return false;
  if (automation.collectionId !== event.collectionId) {
    const collection = schema?.collectionsById.get(automation.collectionId);
    if (!collection || !schema || schema.fieldSource(collection).id !== event.collectionId) return false;
  }
  const actor = (event.payload?.actor ?? {}) as EventActor;
  if (event.eventType === RECORD_UPDATED && actor.kind === 'AUTOMATION' && actor.id === automation.simplyId) return false;
  if (automation.triggerType === 'FIELD_VALUE_CHANGED') {
    const changed = Array.isArray(data.changedFieldSimplyIds) ? (data.changedFieldSimplyIds as string[]) : [];
    const watched = Array.isArray(automation.triggerConfig.dataFieldSimplyIds) ? (automation.triggerConfig.dataFieldSimplyIds as string[]) : [];
    return changed.some((id) => watched.includes(id));
  }
  return true;
}

export function automationTriggerConsumer(services: Services): DomainEventConsumer {
  return async (events, db) => {
    const relevant = events.filter((e) => triggerTypesOf(e).length > 0);
    if (relevant.length === 0) return;
    const teamIds = [...new Set(relevant.map((e) => e.teamId))];
    const { rows } = await db.query(
      `SELECT a.id, a."simplyId", a."teamId", t."simplyId" AS "teamSimplyId", a."collectionId", a."triggerType", a."triggerConfig"
         FROM "Automation" a JOIN "Team" t ON t.id = a."teamId"
        WHERE a."teamId" = ANY($1::bigint[]) AND a."isEnabled" AND a."triggerType" <> 'SCHEDULE'`,
      [teamIds],
    );
    if (rows.length === 0) return;
    const byTeam = new Map<bigint, AutomationRow[]>();
    for (const r of rows) {
      const automation: AutomationRow = { ...r, id: BigInt(r.id), teamId: BigInt(r.teamId), collectionId: r.collectionId === null ? null : BigInt(r.collectionId), triggerConfig: r.triggerConfig ?? {} };
      byTeam.set(automation.teamId, [...(byTeam.get(automation.teamId) ?? []), automation]);
    }
    // SMART collections need the team's schema (cached; loaded once per team at most)
    const schemas = new Map<bigint, TeamSchema>();
    for (const [teamId, automations] of byTeam) {
      if (automations.some((a) => a.collectionId !== null)) schemas.set(teamId, await services.schemas.get(teamId));
    }
    const maxDepth = services.config.AUTOMATION_MAX_DEPTH;
    const claims: Claim[] = [];
    for (const event of relevant) {
      const types = triggerTypesOf(event);
      const depth = Number((event.payload?.actor as EventActor | undefined)?.automationDepth ?? 0) || 0;
      for (const automation of byTeam.get(event.teamId) ?? []) {
        if (!types.includes(automation.triggerType) || !matches(event, automation, schemas.get(event.teamId))) continue;
        const tooDeep = depth > maxDepth;
        claims.push({
          teamId: automation.teamId,
          teamSimplyId: automation.teamSimplyId,
          automationId: automation.id,
          automationSimplyId: automation.simplyId,
          triggerType: automation.triggerType,
          triggerEventId: event.eventId,
          depth,
          trace: event.trace,
          status: tooDeep ? 'SKIPPED' : 'QUEUED',
          ...(tooDeep
            ? { errorDetails: { code: 'AUTOMATION_DEPTH_EXCEEDED', message: `Not run: this event was caused by a chain of ${depth} automation executions (AUTOMATION_MAX_DEPTH is ${maxDepth})`, depth, maxDepth } }
            : {}),
        });
      }
    }
    await claimExecutions(services, db, claims);
  };
}
