// Chat widget administration (docs/api/conversations.md "Chat widget"): create, list, read, change
// and delete a team's widgets. Reading needs DATA_CONVERSATIONS_VIEW, writing it at edit level (the
// tiers of widgets.schema.ts, as the conversation table's). A widget change drops cached visitor
// tokens on every instance, so a disabled or deleted widget's visitors are cut off at once.
import type { RequestContext, Services } from '../../app/context.ts';
import { publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import { ConflictError, NotFoundError } from '../../app/errors.ts';
import { paginationOf, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { ConversationWidget } from '../../generated/prisma/client.ts';
import { actorOf } from './conversation-access.ts';
import { assignableUser } from './conversations.service.ts';
import { CONVERSATION_LIMITS, pageInput } from './conversations.input.ts';
import { newIdentitySecret } from './widget-identity-secret.ts';
import { conversationWidgetId } from './widget.ids.ts';
import { createWidgetInput, DEFAULT_APPEARANCE, updateWidgetInput, WIDGET_LIMITS, type Appearance, type AppearanceInput } from './widget.input.ts';

export type WidgetRow = ConversationWidget;

/** A widget as the API answers it; `identitySecret` only in the answer that made it. */
export interface WidgetView {
  row: WidgetRow;
  appearance: Appearance;
  defaultAssignedUserSimplyId: string | null;
  identitySecret: string | null;
}

/** The stored appearance with the defaults under it (a widget made before a field existed shows its default). */
export function appearanceOf(row: Pick<WidgetRow, 'appearance'>): Appearance {
  const stored = (row.appearance ?? {}) as Partial<Appearance>;
  return { ...DEFAULT_APPEARANCE, ...Object.fromEntries(Object.entries(stored).filter(([, v]) => typeof v === 'string')) };
}

function mergedAppearance(before: Appearance | null, input: AppearanceInput | undefined): Appearance {
  const base = before ?? { ...DEFAULT_APPEARANCE };
  if (!input) return base;
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<Appearance>;
  // a greeting set to null or blank clears it (no greeting shown); the other fields keep their defaults
  if (input.greeting === null) given.greeting = '';
  return { ...base, ...given };
}

async function viewsOf(services: Services, rows: WidgetRow[], secret: string | null = null): Promise<WidgetView[]> {
  const userIds = [...new Set(rows.map((r) => r.defaultAssignedUserId).filter((id): id is bigint => id !== null))];
  const users = userIds.length ? await services.prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, simplyId: true } }) : [];
  const byId = new Map(users.map((u) => [u.id, u.simplyId]));
  return rows.map((row) => ({
    row,
    appearance: appearanceOf(row),
    defaultAssignedUserSimplyId: row.defaultAssignedUserId === null ? null : (byId.get(row.defaultAssignedUserId) ?? null),
    identitySecret: secret,
  }));
}

/** The team's widget by its id; 404 for another team's, exactly like a missing one. */
export async function findWidget(ctx: RequestContext, simplyId: string): Promise<WidgetRow> {
  const team = requireTeam(ctx);
  conversationWidgetId.assert(simplyId, 'widgetSimplyId');
  const row = await ctx.services.prisma.conversationWidget.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError('Widget', simplyId);
  return row;
}

export async function listWidgets(ctx: RequestContext, raw: unknown): Promise<Page<WidgetView>> {
  const team = requireTeam(ctx);
  const input = parseInput(pageInput, raw, 'Invalid paging parameters');
  const paging = parsePaging(input, { defaultLimit: CONVERSATION_LIMITS.defaultLimit, maxLimit: CONVERSATION_LIMITS.maxLimit });
  const rows = await ctx.services.prisma.conversationWidget.findMany({
    where: { teamId: team.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: paging.limit,
    skip: paging.offset,
  });
  const pagination = await paginationOf(rows.length, paging, () => ctx.services.prisma.conversationWidget.count({ where: { teamId: team.id } }));
  return { nodes: await viewsOf(ctx.services, rows), pagination };
}

export async function getWidget(ctx: RequestContext, simplyId: string): Promise<WidgetView> {
  return (await viewsOf(ctx.services, [await findWidget(ctx, simplyId)]))[0]!;
}

/** POST …/widgets: the identity secret is made here and answered once. */
export async function createWidget(ctx: RequestContext, raw: unknown): Promise<WidgetView> {
  const team = requireTeam(ctx);
  const input = parseInput(createWidgetInput, raw, 'Invalid widget');
  const assignee = input.defaultAssignedUserId ? await assignableUser(ctx, input.defaultAssignedUserId, 'defaultAssignedUserId') : null;
  const simplyId = conversationWidgetId.create();
  const secret = newIdentitySecret(ctx.services, team.id, simplyId);
  const actor = actorOf(ctx);
  const row = await runTransaction(ctx.services.prisma, async (tx) => {
    // the team's creates take turns, so concurrent ones cannot all pass the count and overrun the limit
    const lock = advisoryLock('conversationWidgets', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    if ((await tx.conversationWidget.count({ where: { teamId: team.id } })) >= WIDGET_LIMITS.perTeam) {
      throw new ConflictError(`A team may have at most ${WIDGET_LIMITS.perTeam} chat widgets; delete one first`);
    }
    return tx.conversationWidget.create({
      data: {
        simplyId,
        teamId: team.id,
        name: input.name,
        allowedOrigins: input.allowedOrigins ?? [],
        appearance: mergedAppearance(null, input.appearance),
        identityVerification: input.identityVerification ?? 'OPTIONAL',
        identitySecretCiphertext: secret.ciphertext,
        identitySecretHint: secret.hint,
        defaultPriority: input.defaultPriority ?? 'NORMAL',
        defaultAssignedUserId: assignee,
        isEnabled: input.isEnabled ?? true,
        createdByKind: actor.kind,
        createdById: actor.id,
      },
    });
  });
  return (await viewsOf(ctx.services, [row], secret.secret))[0]!;
}

/** PUT …/widgets/{id}: any field; `rotateIdentitySecret: true` makes a new secret, answered once. */
export async function updateWidget(ctx: RequestContext, simplyId: string, raw: unknown): Promise<WidgetView> {
  const team = requireTeam(ctx);
  conversationWidgetId.assert(simplyId, 'widgetSimplyId');
  const input = parseInput(updateWidgetInput, raw, 'Invalid widget change');
  const assignee = input.defaultAssignedUserId ? await assignableUser(ctx, input.defaultAssignedUserId, 'defaultAssignedUserId') : (input.defaultAssignedUserId as null | undefined);
  const secret = input.rotateIdentitySecret ? newIdentitySecret(ctx.services, team.id, simplyId) : null;
  const row = await runTransaction(ctx.services.prisma, async (tx) => {
    const before = await tx.conversationWidget.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
    if (!before) throw new NotFoundError('Widget', simplyId);
    return tx.conversationWidget.update({
      where: { id: before.id },
      data: {
        name: input.name,
        allowedOrigins: input.allowedOrigins,
        appearance: input.appearance ? mergedAppearance(appearanceOf(before), input.appearance) : undefined,
        identityVerification: input.identityVerification,
        defaultPriority: input.defaultPriority,
        defaultAssignedUserId: assignee,
        isEnabled: input.isEnabled,
        ...(secret ? { identitySecretCiphertext: secret.ciphertext, identitySecretHint: secret.hint, identitySecretRotatedAt: new Date() } : {}),
      },
    });
  });
  // a disabled widget, a tighter verification or new origins apply to the tokens already out
  await publishCredentialInvalidation(ctx.services.notifier, ctx.services.authenticator, { teamId: team.id });
  return (await viewsOf(ctx.services, [row], secret?.secret ?? null))[0]!;
}

/** DELETE …/widgets/{id}: its visitors and their tokens go with it; the conversations stay in the inbox. */
export async function deleteWidget(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  conversationWidgetId.assert(simplyId, 'widgetSimplyId');
  const { count } = await ctx.services.prisma.conversationWidget.deleteMany({ where: { teamId: team.id, simplyId } });
  if (count === 0) throw new NotFoundError('Widget', simplyId);
  await publishCredentialInvalidation(ctx.services.notifier, ctx.services.authenticator, { teamId: team.id });
  return true;
}
