// CREATE_RECORD: a new record in the configured collection, through the data core's create.
import { createRecords } from '../../data/records/records.service.ts';
import type { ActionHandler } from './action-run.ts';

export const createRecord: ActionHandler = async (run) => {
  await createRecords(run.ctx, String(run.config.dataCollectionSimplyId), [run.config.fields ?? {}], { batch: false, source: 'JOB' });
};
