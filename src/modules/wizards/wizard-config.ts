// A wizard's configuration as one object: the wizard row, its collection, its steps in order,
// each step's tasks in order, each task's linked fields resolved against the team schema. Read by
// every face (detail, schema, run-access, execute, the runner) with one Prisma query.
import type { DataWizard, DataWizardStep, DataWizardStepTask, Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from '../../kernel/index.ts';
import type { TaskType } from './wizards.input.ts';
import { type Tx } from '../../app/transaction.ts';

export interface WizardTaskField {
  field: FieldDefinition;
  isRequired: boolean;
}

export interface WizardTask {
  row: DataWizardStepTask;
  type: TaskType | string;
  /** 0-based place in its step */
  position: number;
  /** the step and the wizard it belongs to */
  stepSimplyId: string;
  wizardSimplyId: string;
  fields: WizardTaskField[];
}

export interface WizardStep {
  row: DataWizardStep;
  /** 0-based place in the wizard's order */
  position: number;
  /** the wizard it belongs to */
  wizardSimplyId: string;
  tasks: WizardTask[];
}

export interface WizardConfig {
  row: DataWizard;
  /** null only if the collection row is gone (collections are archived, not deleted) */
  collection: CollectionDefinition | null;
  steps: WizardStep[];
}

export const WIZARD_INCLUDE = {
  steps: {
    orderBy: [{ rank: 'asc' }, { id: 'asc' }],
    include: {
      tasks: {
        orderBy: [{ rank: 'asc' }, { id: 'asc' }],
        include: { fields: { orderBy: [{ rank: 'asc' }, { id: 'asc' }] } },
      },
    },
  },
} satisfies Prisma.DataWizardInclude;

export type LoadedWizard = DataWizard & {
  steps: (DataWizardStep & { tasks: (DataWizardStepTask & { fields: { fieldId: bigint; isRequired: boolean }[] })[] })[];
};

/**
 * Resolves a loaded wizard against the team schema. A link whose field was removed from the
 * collection since is left out (field removal does not know about wizards).
 */
export function toWizardConfig(schema: TeamSchema, wizard: LoadedWizard): WizardConfig {
  const collection = wizard.collectionId === null ? null : (schema.collectionsById.get(wizard.collectionId) ?? null);
  const own = new Set(collection ? schema.fieldsOf(collection).map((f) => f.id) : []);
  return {
    row: wizard,
    collection,
    steps: wizard.steps.map((step, position) => ({
      row: step,
      position,
      wizardSimplyId: wizard.simplyId,
      tasks: step.tasks.map((task, taskPosition) => ({
        row: task,
        type: task.type,
        position: taskPosition,
        stepSimplyId: step.simplyId,
        wizardSimplyId: wizard.simplyId,
        fields: task.fields.flatMap((link) => {
          const field = schema.fieldsById.get(link.fieldId);
          return field && own.has(field.id) ? [{ field, isRequired: link.isRequired }] : [];
        }),
      })),
    })),
  };
}

export async function loadWizardConfig(db: PrismaClient | Tx, schema: TeamSchema, simplyId: string): Promise<WizardConfig | null> {
  const wizard = await db.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: schema.teamId, simplyId } }, include: WIZARD_INCLUDE });
  return wizard ? toWizardConfig(schema, wizard) : null;
}

/** The first step: the wizard's firstStepId, which authoring keeps equal to the first step in order. */
export function firstStep(config: WizardConfig): WizardStep | null {
  const id = config.row.firstStepId;
  return (id !== null ? config.steps.find((s) => s.row.id === id) : undefined) ?? config.steps[0] ?? null;
}
