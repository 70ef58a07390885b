// External-access links, the team's side (docs/api/data-wizards.md "External-access links"):
// create one for a record, list them, revoke one. The person outside the team opens the link's
// form through wizard-external-form-endpoint.ts.
//
// The secret: `svc_wxl_` + 256 random bits, shown once in the created link's `url`. Only its
// SHA-256 is stored (hashToken, the storage form of API keys and session tokens), and a link is found
// by that digest, as an API key is: what the table holds cannot open a form.
//
// Who: privileged (the fields' scope: TEAM_ADMIN_DATA_WIZARDS at view level to list, edit level to
// create and revoke, or a team admin; never a scoped token). A link lets its holder run the wizard on
// the record and shows them the current values of the fields the wizard collects, so its creator
// must be able to do both: RUN on the wizard's collection and read access to each collected field.
import type { DataWizardExternalLink } from '../../generated/prisma/client.ts';
import { fieldAccess, hasDataAccess } from '../../app/auth/principal.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import type { RequestContext, Services } from '../../app/context.ts';
import { ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId, randomSecret } from '../../app/ids.ts';
import { type PageInput, type PaginationShape, paginationOf, parsePaging, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { findRecords, recordSimplyIds } from '../../kernel/index.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { findAdminWizard } from './wizard-admin-lookup.ts';
import { toWizardConfig, WIZARD_INCLUDE, type WizardConfig } from './wizard-config.ts';
import {
  DAY_MS,
  DEFAULT_LINK_LIFETIME_DAYS,
  externalLinkInput,
  MAX_ACTIVE_LINKS_PER_WIZARD,
  MAX_LINK_LIFETIME_DAYS,
} from './wizard-external-links.input.ts';
import { readinessBlockers } from './wizard-readiness.ts';
import { WizardExternalLinkNotFoundError, WizardNotFoundError, WizardNotReadyError } from './wizards.errors.ts';
import { dataWizardExternalLinkId, dataWizardId } from './wizards.ids.ts';

export const EXTERNAL_LINK_TOKEN_PREFIX = 'svc_wxl_';
/** where the form is served (AppModule.httpEndpoints): `<base URL>/wizard-links/<secret>` */
export const EXTERNAL_FORM_PATH = '/wizard-links/';

export type ExternalLinkStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED' | 'USED_UP';

export interface ExternalLinkView {
  row: DataWizardExternalLink;
  dataWizardSimplyId: string;
  /** null only if the record row is gone */
  dataRecordSimplyId: string | null;
  status: ExternalLinkStatus;
  /** the form's address with the secret: only in the answer that created the link */
  url?: string;
}

export interface ExternalLinkPage {
  nodes: ExternalLinkView[];
  pagination: PaginationShape;
}

/** What a link is now: revoked wins over used up, which wins over expired. */
export function linkStatus(row: Pick<DataWizardExternalLink, 'revokedAt' | 'expiresAt' | 'maxUses' | 'useCount'>, now = new Date()): ExternalLinkStatus {
  if (row.revokedAt) return 'REVOKED';
  if (row.maxUses !== null && row.useCount >= row.maxUses) return 'USED_UP';
  if (row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return 'ACTIVE';
}

export function externalFormUrl(services: Services, token: string): string {
  return `${publicBaseUrl(services)}${EXTERNAL_FORM_PATH}${token}`;
}

async function toViews(ctx: RequestContext, config: WizardConfig, rows: DataWizardExternalLink[]): Promise<ExternalLinkView[]> {
  const simplyIds = await recordSimplyIds(ctx.services.pool, requireTeam(ctx).id, rows.map((r) => r.recordId));
  const now = new Date();
  return rows.map((row) => ({ row, dataWizardSimplyId: config.row.simplyId, dataRecordSimplyId: simplyIds.get(row.recordId) ?? null, status: linkStatus(row, now) }));
}

/** The fields the wizard's UPDATE_DATA_RECORD tasks collect (the form pre-fills their values). */
export function collectedFieldIds(config: WizardConfig): string[] {
  const ids = config.steps.flatMap((s) => s.tasks.filter((t) => t.type === 'UPDATE_DATA_RECORD').flatMap((t) => t.fields.map((f) => f.field.dataFieldSimplyId)));
  return [...new Set(ids)];
}

/** The creator must be able to do what the link lets its holder do. */
function requireDelegable(ctx: RequestContext, config: WizardConfig): void {
  const p = ctx.principal;
  const collection = config.collection!;
  if (!hasDataAccess(p, collection.simplyId, 'RUN')) {
    throw new PermissionDeniedError(`A link lets its holder run the wizard: the credential's team role needs the RUN data permission on collection ${collection.simplyId}`);
  }
  const hidden = collectedFieldIds(config).filter((id) => fieldAccess(p, collection.simplyId, id) === 'NONE');
  if (hidden.length > 0) {
    throw new PermissionDeniedError(`A link shows its holder the current values of the fields the wizard collects, and the credential's team role cannot read ${hidden.join(', ')}`);
  }
}

function expiryOf(expiresAt: string | null | undefined, now: Date): Date {
  if (expiresAt === null || expiresAt === undefined) return new Date(now.getTime() + DEFAULT_LINK_LIFETIME_DAYS * DAY_MS);
  const at = new Date(expiresAt);
  if (at.getTime() <= now.getTime()) throw new ValidationError('expiresAt must be in the future', [{ field: 'expiresAt', message: 'must be in the future' }]);
  if (at.getTime() > now.getTime() + MAX_LINK_LIFETIME_DAYS * DAY_MS) {
    throw new ValidationError(`A link works for at most ${MAX_LINK_LIFETIME_DAYS} days`, [{ field: 'expiresAt', message: `must be at most ${MAX_LINK_LIFETIME_DAYS} days from now` }]);
  }
  return at;
}

/** POST …/external-access-links: a new link for one record; its url (with the secret) is shown once. */
export async function createExternalLink(ctx: RequestContext, wizardSimplyId: string, raw: unknown): Promise<ExternalLinkView> {
  const team = requireTeam(ctx);
  const input = parseInput(externalLinkInput, raw, 'Invalid external-access link');
  assertDataSimplyId(input.dataRecordSimplyId, 'dataRecordSimplyId');
  const now = new Date();
  const expiresAt = expiryOf(input.expiresAt, now);
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  const schema = await ctx.services.schemas.get(team.id);
  // read as stored: readiness needs the links the configuration no longer resolves
  const stored = await ctx.services.prisma.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: wizardSimplyId } }, include: WIZARD_INCLUDE });
  if (!stored) throw new WizardNotFoundError(wizardSimplyId);
  const config = toWizardConfig(schema, stored);
  const blockers = readinessBlockers(stored, schema);
  if (blockers.length > 0) throw new WizardNotReadyError(blockers.map((b) => ({ field: b.field ?? undefined, code: b.code, message: b.message })));
  requireDelegable(ctx, config);
  const [record] = await findRecords(ctx.services.pool, team.id, [input.dataRecordSimplyId]);
  if (!record || record.collectionId !== config.collection!.id) throw new NotFoundError('Data record', input.dataRecordSimplyId);

  const token = `${EXTERNAL_LINK_TOKEN_PREFIX}${randomSecret()}`;
  const p = ctx.principal;
  const row = await runTransaction(ctx.services.prisma, async (tx) => {
    // the wizard's row is the lock: concurrent creations count one after the other
    await tx.$queryRaw`SELECT id FROM "DataWizard" WHERE "teamId" = ${team.id} AND id = ${config.row.id} FOR UPDATE`;
    const active = await tx.dataWizardExternalLink.count({ where: { teamId: team.id, wizardId: config.row.id, revokedAt: null, expiresAt: { gt: now } } });
    if (active >= MAX_ACTIVE_LINKS_PER_WIZARD) throw new ConflictError(`A wizard has at most ${MAX_ACTIVE_LINKS_PER_WIZARD} links that still work; revoke some first`);
    return tx.dataWizardExternalLink.create({
      data: {
        simplyId: dataWizardExternalLinkId.create(),
        teamId: team.id,
        wizardId: config.row.id,
        recordId: record.id,
        label: input.label,
        tokenHash: hashToken(token),
        expiresAt,
        maxUses: input.maxUses ?? null,
        createdByKind: p.kind,
        createdById: p.credentialId,
      },
    });
  });
  return { row, dataWizardSimplyId: config.row.simplyId, dataRecordSimplyId: record.simplyId, status: 'ACTIVE', url: externalFormUrl(ctx.services, token) };
}

/** GET …/external-access-links: the wizard's links, newest first, without their secrets. */
export async function listExternalLinks(ctx: RequestContext, wizardSimplyId: string, args: PageInput): Promise<ExternalLinkPage> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const config = await findAdminWizard(ctx, wizardSimplyId);
  const where = { teamId: team.id, wizardId: config.row.id };
  const rows = await ctx.services.prisma.dataWizardExternalLink.findMany({ where, ...byCreation(paging, 'desc') });
  return { nodes: await toViews(ctx, config, rows), pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.dataWizardExternalLink.count({ where })) };
}

/** DELETE …/external-access-links/{id}: the link stops working at once. Revoking a revoked link changes nothing. */
export async function revokeExternalLink(ctx: RequestContext, wizardSimplyId: string, linkSimplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  dataWizardExternalLinkId.assert(linkSimplyId, 'dataWizardExternalAccessLinkSimplyId');
  const config = await findAdminWizard(ctx, wizardSimplyId);
  const where = { teamId: team.id, wizardId: config.row.id, simplyId: linkSimplyId };
  const found = await ctx.services.prisma.dataWizardExternalLink.findFirst({ where, select: { id: true } });
  if (!found) throw new WizardExternalLinkNotFoundError(linkSimplyId);
  await ctx.services.prisma.dataWizardExternalLink.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  return true;
}
