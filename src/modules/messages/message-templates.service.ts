// Simple message templates (name, channel, subject, design format) of a team. Every operation
// needs OUTGOING_MESSAGES_TEMPLATES (view to read, edit to write), checked by the schema's tier.
// DELETE archives: the row stays, readable by id with its archivedAt, and leaves the default list.
import type { OutgoingMessageTemplate, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { byCreation, paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { messageTemplateId } from './messages.ids.ts';
import { TemplateArchivedError } from './messages.errors.ts';
import {
  createMessageTemplateInput,
  DELIVERY_METHODS,
  subjectAllowed,
  subjectRefusal,
  updateMessageTemplateInput,
} from './message-templates.input.ts';

const LABEL = 'Message template';

export interface ListMessageTemplatesArgs extends PageInput {
  deliveryMethod?: string | null;
  includeArchived?: boolean | null;
}

/** The template of the caller's team; another team's, like a missing one, is 404. */
export async function findTemplate(ctx: RequestContext, simplyId: string): Promise<OutgoingMessageTemplate> {
  const team = requireTeam(ctx);
  messageTemplateId.assert(simplyId, 'outgoingMessageTemplateSimplyId');
  const row = await ctx.services.prisma.outgoingMessageTemplate.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError(LABEL, simplyId);
  return row;
}

/** The columns authoring adds (docs/api/outgoing-message-templates.md): large, and no field of the simple list. */
export const AUTHORED_CONTENT = { htmlContent: true, textContent: true, designJson: true } as const;

/** A template without its authored content (what lists read). */
export type TemplateSummary = Omit<OutgoingMessageTemplate, keyof typeof AUTHORED_CONTENT>;

/** The team's templates, newest first; archived ones only when asked for. */
export async function listMessageTemplates(ctx: RequestContext, args: ListMessageTemplatesArgs): Promise<Page<TemplateSummary>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where: Prisma.OutgoingMessageTemplateWhereInput = { teamId: team.id };
  if (args.deliveryMethod != null) {
    if (!(DELIVERY_METHODS as readonly string[]).includes(args.deliveryMethod)) {
      throw new ValidationError(`deliveryMethod must be one of ${DELIVERY_METHODS.join(', ')}`, [{ field: 'deliveryMethod', message: `must be one of ${DELIVERY_METHODS.join(', ')}` }]);
    }
    where.deliveryMethod = args.deliveryMethod;
  }
  if (args.includeArchived !== true) where.archivedAt = null;
  const { prisma } = ctx.services;
  const nodes = await prisma.outgoingMessageTemplate.findMany({ where, omit: AUTHORED_CONTENT, ...byCreation(paging, 'desc') });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => prisma.outgoingMessageTemplate.count({ where })) };
}

export async function getMessageTemplate(ctx: RequestContext, simplyId: string): Promise<OutgoingMessageTemplate> {
  return findTemplate(ctx, simplyId);
}

export async function createMessageTemplate(ctx: RequestContext, raw: unknown): Promise<OutgoingMessageTemplate> {
  const team = requireTeam(ctx);
  const input = parseInput(createMessageTemplateInput, raw, 'Invalid message template');
  return ctx.services.prisma.outgoingMessageTemplate.create({
    data: {
      simplyId: messageTemplateId.create(),
      teamId: team.id,
      name: input.name,
      description: input.description ?? null,
      deliveryMethod: input.deliveryMethod,
      subjectLine: input.subjectLine ?? null,
      designFormat: input.designFormat,
      createdByKind: ctx.principal.kind,
      createdById: ctx.principal.credentialId,
    },
  });
}

/**
 * Changes name, description and subjectLine (absent keys stay; null clears). An archived template
 * is 409: it is kept as it was archived. The write is conditional on the row still being
 * unarchived, so an update racing an archive either lands before it or is refused, never after.
 */
export async function updateMessageTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<OutgoingMessageTemplate> {
  const current = await findTemplate(ctx, simplyId);
  const input = parseInput(updateMessageTemplateInput, raw, 'Invalid message template update');
  if (current.archivedAt) throw new TemplateArchivedError(simplyId);
  if (input.subjectLine != null && !subjectAllowed(current.deliveryMethod)) {
    throw new ValidationError('subjectLine is not allowed on this template', [{ field: 'subjectLine', message: subjectRefusal(current.deliveryMethod) }]);
  }
  const data: Prisma.OutgoingMessageTemplateUpdateManyMutationInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.description !== undefined) data.description = input.description;
  if (input.subjectLine !== undefined) data.subjectLine = input.subjectLine;
  // the row as this update left it (a concurrent update's values are not this answer's)
  const [updated] = await ctx.services.prisma.outgoingMessageTemplate.updateManyAndReturn({ where: { id: current.id, archivedAt: null }, data });
  if (!updated) throw new TemplateArchivedError(simplyId);
  return updated;
}

/**
 * Archives the template (sets archivedAt; nothing is destroyed). Archiving it again is 404, as
 * for a soft-deleted file: of concurrent deletes exactly one archives, the others answer as a
 * later repeat would.
 */
export async function deleteMessageTemplate(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const current = await findTemplate(ctx, simplyId);
  const { count } = await ctx.services.prisma.outgoingMessageTemplate.updateMany({
    where: { id: current.id, archivedAt: null },
    data: { archivedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError(LABEL, simplyId);
  return true;
}
