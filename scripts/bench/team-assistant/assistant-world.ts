// What every scenario of the section works in: the scripted model, one `svc start` pointed at it
// (production settings otherwise, so the run queue keeps its own concurrency), the bootstrapped
// team with a collection of people for count_data_records to count, the admin's REST client and
// their graphql-ws subscriber. Everything is torn down with the bed.
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import type { BootstrappedTeam, SectionBed } from '../section-bed.ts';
import { AssistantClient } from './assistant-client.ts';
import { openRunEventSubscriber, type RunEventSubscriber } from './run-event-subscriber.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-model.ts';

export const PEOPLE = 500;
const PEOPLE_PER_BATCH = 100;

export interface AssistantWorld {
  platform: PlatformProcess;
  boot: BootstrappedTeam;
  model: ScriptedModel;
  client: AssistantClient;
  subscriber: RunEventSubscriber;
  collectionSimplyId: string;
}

export async function openAssistantWorld<S extends string>(bed: SectionBed<S>): Promise<AssistantWorld> {
  const boot = await bed.bootstrap('Bench team assistant');
  let collectionSimplyId = '';
  // the collection exists only once the platform runs; the model reads its id when it first answers
  const model = await startScriptedModel(() => collectionSimplyId);
  bed.onCleanup(() => model.close());
  const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', AI_BASE_URL: model.baseUrl, AI_MODEL: 'bench-model' }));
  bed.onCleanup(() => platform.stop());

  const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.apiKey, sockets: 2 });
  try {
    const collection = await api.expect(201, 'POST', '/v1/data-collections', { name: 'People', fields: [{ title: 'Name', columnName: 'name', dataType: 'PLAIN_TEXT' }] });
    const nameField = (collection.fields as { id: string }[])[0]!.id;
    for (let first = 0; first < PEOPLE; first += PEOPLE_PER_BATCH) {
      const records = Array.from({ length: PEOPLE_PER_BATCH }, (_, i) => ({ fields: { [nameField]: `Person ${first + i}` } }));
      const created = await api.expect(200, 'POST', '/v1/data-records/batch', { dataCollectionSimplyId: collection.id, records });
      if (created?.created !== records.length) throw new Error(`seeding people created ${JSON.stringify(created).slice(0, 300)}`);
    }
    collectionSimplyId = collection.id;
  } finally {
    api.close();
  }

  const client = new AssistantClient(platform, boot, 16);
  bed.onCleanup(() => client.close());
  const subscriber = await openRunEventSubscriber(platform, boot);
  bed.onCleanup(() => subscriber.close());
  return { platform, boot, model, client, subscriber, collectionSimplyId };
}
