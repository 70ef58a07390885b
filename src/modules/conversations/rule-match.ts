// Which assignment rule a conversation falls under: the first enabled rule, in position order,
// whose every condition holds. Record conditions are the platform's record search filters, checked
// by the data kernel (findMatchingRecord) against the conversation's linked record, so a rule's
// record condition means what the same search of that collection would find.
import type { Services } from '../../app/context.ts';
import { findMatchingRecord, normalizeFilters, type TeamSchema } from '../../kernel/index.ts';
import type { ConversationRow } from './conversations.sql.ts';
import type { RuleRow } from './routing-rules.sql.ts';

/** The conditions that need no database: channel, priority and subject. */
function plainConditionsHold(rule: RuleRow, c: ConversationRow): boolean {
  const k = rule.conditions;
  if (k.channels && !k.channels.includes(c.channel as never)) return false;
  if (k.priorities && !k.priorities.includes(c.priority as never)) return false;
  if (k.subject) {
    const subject = (c.subject ?? '').toLowerCase();
    if (k.subject.contains !== undefined && !subject.includes(k.subject.contains.toLowerCase())) return false;
    if (k.subject.startsWith !== undefined && !subject.startsWith(k.subject.startsWith.toLowerCase())) return false;
  }
  return true;
}

/** Whether the conversation's linked record is a live member of the rule's collection meeting its filters. */
async function recordConditionHolds(services: Services, schema: TeamSchema, rule: RuleRow, c: ConversationRow): Promise<boolean> {
  const condition = rule.conditions.record;
  if (!condition) return true;
  if (c.dataRecordSimplyId === null) return false;
  const collection = schema.collectionsBySimplyId.get(condition.dataCollectionSimplyId);
  if (!collection) return false;
  const fields = schema.fieldsOf(collection);
  // the collection's fields may have changed since the rule was saved: a filter that no longer fits matches nothing
  const normalized = normalizeFilters(fields, condition.filters ?? []);
  if (!normalized.ok) return false;
  const row = await findMatchingRecord(services.pool, {
    teamId: schema.teamId,
    collectionId: collection.id,
    recordSimplyId: c.dataRecordSimplyId,
    filters: normalized.filters,
    fieldsById: new Map(fields.map((f) => [f.dataFieldSimplyId, f])),
  });
  return row !== null;
}

/** The first enabled rule (in position order) whose conditions all hold, or null. */
export async function firstMatchingRule(services: Services, rules: readonly RuleRow[], c: ConversationRow): Promise<RuleRow | null> {
  let schema: TeamSchema | null = null;
  for (const rule of rules) {
    if (!rule.isEnabled || !plainConditionsHold(rule, c)) continue;
    if (rule.conditions.record) {
      schema ??= await services.schemas.get(c.teamId);
      if (!(await recordConditionHolds(services, schema, rule, c))) continue;
    }
    return rule;
  }
  return null;
}
