// What a run was sent (its formData), for areas that act on a completed run: conversations turns
// the runs of external-access links into FORM messages. Read in the caller's transaction.
import type pg from 'pg';

export interface SubmittedRun {
  formData: Record<string, unknown>;
  status: string;
}

/** The run's formData and status, or null when the run is gone (its wizard was deleted). */
export async function submittedRun(db: pg.PoolClient, teamId: bigint, instanceSimplyId: string): Promise<SubmittedRun | null> {
  const { rows } = await db.query(`SELECT "formData", status FROM "DataWizardInstance" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, instanceSimplyId]);
  if (!rows[0]) return null;
  const formData = rows[0].formData;
  return { formData: formData && typeof formData === 'object' && !Array.isArray(formData) ? formData : {}, status: rows[0].status };
}
