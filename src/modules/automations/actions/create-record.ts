// CREATE_RECORD: a new record in the configured collection, through the data core's create.
import { createRecords } from '../../records/records.service.ts';
import { ActionError, type ActionHandler } from './action-run.ts';
import { staleFieldKeys } from './update-fields.ts';

export const createRecord: ActionHandler = async (run) => {
  const target = run.schema.collectionsBySimplyId.get(String(run.config.dataCollectionSimplyId));
  if (!target) throw new ActionError('INVALID_CONFIG', `Collection ${String(run.config.dataCollectionSimplyId)} no longer exists`);
  const stale = staleFieldKeys(run.schema.fieldsOf(target), run.config.fields);
  if (stale.length > 0) throw new ActionError('INVALID_CONFIG', `The action writes fields collection ${target.simplyId} no longer has: ${stale.join(', ')}`);
  await createRecords(run.ctx, target.simplyId, [run.config.fields ?? {}], { batch: false, source: 'JOB' });
};
