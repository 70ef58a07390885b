// Shared by the wizard tests: GraphQL authoring documents and a helper that creates a wizard.
import { gqlData } from './expect-envelope.ts';
import type { TestServer } from './server.ts';

export const ID = '[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}';
export const WIZARD_ID = new RegExp(`^wiz-${ID}$`);
export const STEP_ID = new RegExp(`^wst-${ID}$`);
export const TASK_ID = new RegExp(`^wtk-${ID}$`);
export const INSTANCE_ID = new RegExp(`^wri-${ID}$`);

export const TASK = `dataWizardStepTaskSimplyId type title config fields { dataFieldSimplyId columnName dataType name isRequired }`;
export const STEP = `dataWizardStepSimplyId title position tasks { ${TASK} }`;
export const WIZARD = `dataWizardSimplyId name description dataCollectionSimplyId firstStepId firstDataWizardStepSimplyId stepCount steps { ${STEP} }`;

export const CREATE_WIZARD = `mutation ($input: DataWizardInput!) { createDataWizard(input: $input) { ${WIZARD} } }`;

export interface FieldLink {
  dataFieldSimplyId: string;
  isRequired?: boolean;
}

export interface TaskSpec {
  type: string;
  title: unknown;
  config?: unknown;
  fields?: FieldLink[];
}

export interface WizardSpec {
  name: unknown;
  description?: string;
  dataCollectionSimplyId: string;
  steps?: { title: unknown; tasks?: TaskSpec[] }[];
}

export async function createWizard(server: TestServer, token: string, input: WizardSpec): Promise<any> {
  return gqlData(await server.graphql(CREATE_WIZARD, { input }, { token })).createDataWizard;
}

/** a task field link that needs a value in the run */
export const requiredLink = (dataFieldSimplyId: string): FieldLink => ({ dataFieldSimplyId, isRequired: true });

const links = (fields: (string | FieldLink)[]): FieldLink[] => fields.map((f) => (typeof f === 'string' ? { dataFieldSimplyId: f } : f));

/** an UPDATE_DATA_RECORD task collecting `fields` (field simplyIds, or links made with requiredLink) */
export const updateTask = (title: unknown, ...fields: (string | FieldLink)[]): TaskSpec => ({ type: 'UPDATE_DATA_RECORD', title, fields: links(fields) });

/** a VALIDATE_DATA_RECORD task checking that `fields` have values */
export const validateTask = (title: unknown, ...fields: (string | FieldLink)[]): TaskSpec => ({ type: 'VALIDATE_DATA_RECORD', title, fields: links(fields) });
