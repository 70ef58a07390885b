// CREATE_RECORD: a new record in the configured collection, through the data core's create. The
// create is a keyed effect (src/app/effects.ts): the action's idempotency key is claimed in the
// create's transaction, so a run repeated after its worker died creates nothing and is answered
// with the record the first run created.
import { createRecords } from '../../../kernel/index.ts';
import { type ActionHandler } from './action-run.ts';
import { InvalidConfigError } from '../automations.errors.ts';
import { staleFieldKeys } from './update-fields.ts';

export const createRecord: ActionHandler = async (run) => {
  const target = run.schema.collectionsBySimplyId.get(String(run.config.dataCollectionSimplyId));
  if (!target) throw new InvalidConfigError(`Collection ${String(run.config.dataCollectionSimplyId)} no longer exists`);
  const stale = staleFieldKeys(run.schema.fieldsOf(target), run.config.fields);
  if (stale.length > 0) throw new InvalidConfigError(`The action writes fields collection ${target.simplyId} no longer has: ${stale.join(', ')}`);
  await createRecords(run.ctx, target.simplyId, [run.config.fields ?? {}], { batch: false, source: 'JOB', effectKey: run.idempotencyKey });
};
