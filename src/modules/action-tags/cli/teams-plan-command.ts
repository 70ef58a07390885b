// `svc teams plan --team <teamSimplyId> …`: the operator's side of action-tag plans
// (action-tag-plan.service.ts), on the database like `svc migrate` and `svc bootstrap`.
import { parseArgs } from 'node:util';
import { UsageError } from '../../../app/cli/cli-sign-in.ts';
import { ApiError } from '../../../app/errors.ts';
import { resolveDatabase } from '../../../db/database.ts';
import { createPool, createPrisma } from '../../../db/prisma.ts';
import { loadConfig } from '../../../main/config.ts';
import { setActionTagPlan } from '../action-tag-plan.service.ts';
import { TEAMS_PLAN_USAGE } from './teams-plan-usage.ts';

const number = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number`);
  return Number(value);
};

function planOf(argv: string[]): { team: string; input: Record<string, unknown> } {
  const [subcommand, ...args] = argv;
  if (subcommand !== 'plan') throw new UsageError(subcommand === undefined ? 'give plan' : `unknown subcommand ${subcommand}`);
  const { values } = parseArgs({
    args,
    options: {
      team: { type: 'string' },
      preset: { type: 'string' },
      contract: { type: 'string' },
      billing: { type: 'string' },
      band: { type: 'string' },
      capacity: { type: 'string' },
      'retention-days': { type: 'string' },
      domains: { type: 'string' },
    },
  });
  if (!values.team) throw new UsageError('--team is required');
  const input = Object.fromEntries(
    Object.entries({
      preset: values.preset,
      contract: values.contract,
      billing: values.billing,
      band: number(values.band, '--band'),
      managedCapacity: number(values.capacity, '--capacity'),
      detailRetentionDays: number(values['retention-days'], '--retention-days'),
      domainAllowance: number(values.domains, '--domains'),
    }).filter(([, v]) => v !== undefined),
  );
  return { team: values.team, input };
}

/** Usage mistakes exit 2 with the usage, refused input 1 with the reason. */
export async function teamsCommand(argv: string[]): Promise<number> {
  let plan: ReturnType<typeof planOf>;
  try {
    plan = planOf(argv);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc teams: ${(error as Error).message}\n\nusage:\n${TEAMS_PLAN_USAGE}`);
      return 2;
    }
    throw error;
  }
  const config = loadConfig();
  const db = await resolveDatabase(config);
  const pool = createPool(db.url, 2, 'svc-teams-plan');
  const prisma = createPrisma(pool);
  try {
    const result = await setActionTagPlan({ prisma, config }, plan.team, plan.input, null);
    const { plan: p, features, tagsInUse } = result.capabilities;
    process.stdout.write(`${JSON.stringify({ teamSimplyId: plan.team, ...p, tagsInUse, features, archivedByDowngrade: result.archivedByDowngrade })}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const details = error.details?.map((d) => `${d.field ?? ''} ${d.message}`.trim()).join('; ');
    process.stderr.write(`svc teams: ${error.message}${details ? `: ${details}` : ''}\n`);
    return 1;
  } finally {
    await prisma.$disconnect();
    await pool.end();
    await db.stop();
  }
}
