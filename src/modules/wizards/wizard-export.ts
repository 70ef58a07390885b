// The wizards of a team in the portable team-schema document (references by simplyId only):
// the §2.6 shape plus the collection, the description, the first step and each task's config.
// A task field is only its reference and isRequired: the field's own properties live with the
// collection in the same document, so renaming a field is not a change of every wizard using it.

import { type Tx } from '../../app/transaction.ts';
export interface ExportedWizard {
  dataWizardSimplyId: string;
  dataCollectionSimplyId: string | null;
  name: unknown;
  description: string | null;
  firstStepId: string | null;
  steps: {
    dataWizardStepSimplyId: string;
    title: unknown;
    tasks: {
      dataWizardStepTaskSimplyId: string;
      type: string;
      title: unknown;
      config: unknown;
      fields: { dataFieldSimplyId: string; isRequired: boolean }[];
    }[];
  }[];
}

export async function exportWizards(tx: Tx, teamId: bigint, collectionSimplyIds: ReadonlyMap<string, string>): Promise<ExportedWizard[]> {
  const [wizards, fields] = await Promise.all([
    tx.dataWizard.findMany({
      where: { teamId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: {
        steps: {
          orderBy: [{ rank: 'asc' }, { id: 'asc' }],
          include: { tasks: { orderBy: [{ rank: 'asc' }, { id: 'asc' }], include: { fields: { orderBy: [{ rank: 'asc' }, { id: 'asc' }] } } } },
        },
      },
    }),
    tx.dataField.findMany({ where: { teamId }, select: { id: true, simplyId: true } }),
  ]);
  const fieldSimplyId = new Map(fields.map((f) => [String(f.id), f.simplyId]));
  return wizards.map((w) => ({
    dataWizardSimplyId: w.simplyId,
    dataCollectionSimplyId: w.collectionId === null ? null : (collectionSimplyIds.get(String(w.collectionId)) ?? null),
    name: w.name,
    description: w.description,
    firstStepId: w.steps.find((s) => s.id === w.firstStepId)?.simplyId ?? w.steps[0]?.simplyId ?? null,
    steps: w.steps.map((s) => ({
      dataWizardStepSimplyId: s.simplyId,
      title: s.title,
      tasks: s.tasks.map((t) => ({
        dataWizardStepTaskSimplyId: t.simplyId,
        type: t.type,
        title: t.title,
        config: t.config,
        // a link to a removed field is not exported (it is not shown anywhere else either)
        fields: t.fields.flatMap((f) => {
          const id = fieldSimplyId.get(String(f.fieldId));
          return id ? [{ dataFieldSimplyId: id, isRequired: f.isRequired }] : [];
        }),
      })),
    })),
  }));
}
