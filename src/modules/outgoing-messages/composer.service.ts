// Composing: create a message and change it while it is a DRAFT (docs/api/outgoing-messages.md
// "Composing"). Privileged (OUTGOING_MESSAGES_SEND edit, checked by the schema's tier); choosing
// recipients also needs read access to the collection's records, as searching them would.
import { Prisma, type OutgoingMessage, type OutgoingMessageTemplate } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { messageSenderId, messageTemplateId, templateBodies } from '../messages/index.ts';
import { MessageNotEditableError } from './outgoing-messages.errors.ts';
import { outgoingMessageId } from './outgoing-messages.ids.ts';
import { createOutgoingMessageInput, messageSubjectLine, subjectRefusal, updateOutgoingMessageInput } from './outgoing-messages.input.ts';
import { findMessage } from './outgoing-messages.service.ts';
import { NO_SELECTION, selectionToStore } from './recipient-selection.ts';

const jsonOrNull = (value: unknown) => (value == null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/** An active sender of the team for the channel; 404 like any id the team does not have. */
async function senderIdOf(ctx: RequestContext, simplyId: string, deliveryMethod: string): Promise<bigint> {
  const team = requireTeam(ctx);
  messageSenderId.assert(simplyId, 'messageSenderSimplyId');
  const sender = await ctx.services.prisma.messageSender.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!sender || sender.archivedAt) throw new NotFoundError('Message sender', simplyId);
  if (sender.deliveryMethod !== deliveryMethod) {
    throw new ValidationError('The sender is for another channel', [{ field: 'messageSenderSimplyId', message: `is a ${sender.deliveryMethod} sender; this message is ${deliveryMethod}` }]);
  }
  return sender.id;
}

const TEMPLATE_FIELD = 'outgoingMessageTemplateSimplyId';

/**
 * A template of the team (404 like any id the team does not have). An archived one is refused
 * (400) unless it is the one the message already links (`keep`): a client sending back what it
 * read must not fail because the template was archived since.
 */
async function linkableTemplate(ctx: RequestContext, simplyId: string, keep: bigint | null = null): Promise<OutgoingMessageTemplate> {
  const team = requireTeam(ctx);
  messageTemplateId.assert(simplyId, TEMPLATE_FIELD);
  const template = await ctx.services.prisma.outgoingMessageTemplate.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!template) throw new NotFoundError('Message template', simplyId);
  if (template.archivedAt && template.id !== keep) {
    throw new ValidationError('The message template is archived', [{ field: TEMPLATE_FIELD, message: 'is archived: choose an active template (GET /v1/message-templates)' }]);
  }
  return template;
}

function assertTemplateChannel(template: OutgoingMessageTemplate, deliveryMethod: string): void {
  if (template.deliveryMethod !== deliveryMethod) {
    throw new ValidationError('The message template is for another channel', [{ field: TEMPLATE_FIELD, message: `is a ${template.deliveryMethod} template; this message is ${deliveryMethod}` }]);
  }
}

/**
 * The template's subject as a message subject. Templates allow longer subjects (a whole header
 * line) than one Subject of the mail transport; such a subject is refused rather than cut, so a
 * message never goes out with a subject nobody wrote.
 */
function templateSubject(template: OutgoingMessageTemplate): string | null {
  if (template.subjectLine == null) return null;
  const parsed = messageSubjectLine.safeParse(template.subjectLine);
  if (!parsed.success) {
    throw new ValidationError('The message template\'s subject line does not fit a message', [
      { field: TEMPLATE_FIELD, message: `its subject line ${parsed.error.issues[0]?.message ?? 'is not valid'}; give subjectLine in the body instead` },
    ]);
  }
  return parsed.data;
}

/**
 * A new DRAFT. A template fills what the body leaves out (absent, null, or a blank subject or body):
 * deliveryMethod, contentType (from its designFormat), for EMAIL subjectLine, and the bodies it
 * was authored with (its HTML with the preheader as the hidden first line). A body value always
 * wins, but a body channel other than the template's is a 400.
 */
export async function createOutgoingMessage(ctx: RequestContext, raw: unknown): Promise<OutgoingMessage> {
  const team = requireTeam(ctx);
  const input = parseInput(createOutgoingMessageInput, raw, 'Invalid outgoing message');
  const template = input.outgoingMessageTemplateSimplyId != null ? await linkableTemplate(ctx, input.outgoingMessageTemplateSimplyId) : null;
  const deliveryMethod = input.deliveryMethod ?? template?.deliveryMethod ?? 'EMAIL';
  if (template) assertTemplateChannel(template, deliveryMethod);
  const contentType = input.contentType ?? template?.designFormat ?? 'HTML';
  const subjectLine = input.subjectLine ?? (template && deliveryMethod === 'EMAIL' ? templateSubject(template) : null);
  if (subjectLine != null && deliveryMethod !== 'EMAIL') {
    throw new ValidationError('subjectLine is not allowed on this message', [{ field: 'subjectLine', message: subjectRefusal(deliveryMethod) }]);
  }
  const senderId = input.messageSenderSimplyId != null ? await senderIdOf(ctx, input.messageSenderSimplyId, deliveryMethod) : null;
  const selection = input.recipients != null ? await selectionToStore(ctx, input.recipients) : NO_SELECTION;
  const bodies = template ? templateBodies(template) : null;
  return ctx.services.prisma.outgoingMessage.create({
    data: {
      simplyId: outgoingMessageId.create(),
      teamId: team.id,
      internalName: input.internalName,
      subjectLine,
      deliveryMethod,
      contentType,
      templateId: template?.id ?? null,
      textContent: input.textContent ?? bodies?.textContent ?? null,
      htmlContent: input.htmlContent ?? bodies?.htmlContent ?? null,
      senderId,
      ...selection,
      recipientFilter: jsonOrNull(selection.recipientFilter),
      scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
      createdByKind: ctx.principal.kind,
      createdById: ctx.principal.credentialId,
    },
  });
}

/**
 * Changes a DRAFT (absent keys stay, null clears; `recipients` is replaced whole). Anything else is
 * 409 MESSAGE_NOT_EDITABLE. A template id only links (or, null, unlinks) the template: the draft's
 * content may be the author's work by now, so nothing is copied over it. The write is conditional
 * on the row still being a DRAFT, so an edit racing a status move either lands before it or is
 * refused, never after.
 */
export async function updateOutgoingMessage(ctx: RequestContext, simplyId: string, raw: unknown): Promise<OutgoingMessage> {
  const current = await findMessage(ctx, simplyId);
  const input = parseInput(updateOutgoingMessageInput, raw, 'Invalid outgoing message update');
  if (current.status !== 'DRAFT') throw new MessageNotEditableError(simplyId, current.status);
  const deliveryMethod = input.deliveryMethod ?? current.deliveryMethod;
  const subject = input.subjectLine !== undefined ? input.subjectLine : current.subjectLine;
  if (subject != null && deliveryMethod !== 'EMAIL') {
    throw new ValidationError('subjectLine is not allowed on this message', [{ field: 'subjectLine', message: subjectRefusal(deliveryMethod) }]);
  }
  const data: Prisma.OutgoingMessageUncheckedUpdateManyInput = {};
  if (input.internalName !== undefined) data.internalName = input.internalName;
  if (input.deliveryMethod !== undefined) data.deliveryMethod = input.deliveryMethod;
  if (input.contentType !== undefined) data.contentType = input.contentType;
  if (input.subjectLine !== undefined) data.subjectLine = input.subjectLine;
  if (input.textContent !== undefined) data.textContent = input.textContent;
  if (input.htmlContent !== undefined) data.htmlContent = input.htmlContent;
  if (input.scheduledAt !== undefined) data.scheduledAt = input.scheduledAt === null ? null : new Date(input.scheduledAt);
  if (input.messageSenderSimplyId !== undefined) {
    data.senderId = input.messageSenderSimplyId === null ? null : await senderIdOf(ctx, input.messageSenderSimplyId, deliveryMethod);
  } else if (input.deliveryMethod !== undefined && current.senderId !== null) {
    const sender = await ctx.services.prisma.messageSender.findFirst({ where: { teamId: current.teamId, id: current.senderId }, select: { deliveryMethod: true } });
    if (sender && sender.deliveryMethod !== deliveryMethod) {
      throw new ValidationError('The message\'s sender is for another channel', [{ field: 'deliveryMethod', message: `the sender is a ${sender.deliveryMethod} sender: change messageSenderSimplyId too (or send null)` }]);
    }
  }
  if (input.outgoingMessageTemplateSimplyId !== undefined) {
    const template = input.outgoingMessageTemplateSimplyId === null ? null : await linkableTemplate(ctx, input.outgoingMessageTemplateSimplyId, current.templateId);
    if (template) assertTemplateChannel(template, deliveryMethod);
    data.templateId = template?.id ?? null;
  } else if (input.deliveryMethod !== undefined && current.templateId !== null) {
    const template = await ctx.services.prisma.outgoingMessageTemplate.findFirst({ where: { teamId: current.teamId, id: current.templateId }, select: { deliveryMethod: true } });
    if (template && template.deliveryMethod !== deliveryMethod) {
      throw new ValidationError('The message\'s template is for another channel', [
        { field: 'deliveryMethod', message: `the template is a ${template.deliveryMethod} template: change ${TEMPLATE_FIELD} too (or send null)` },
      ]);
    }
  }
  if (input.recipients !== undefined) {
    const selection = input.recipients === null ? NO_SELECTION : await selectionToStore(ctx, input.recipients);
    Object.assign(data, selection, { recipientFilter: jsonOrNull(selection.recipientFilter) });
  }
  const [updated] = await ctx.services.prisma.outgoingMessage.updateManyAndReturn({ where: { id: current.id, status: 'DRAFT' }, data });
  if (!updated) {
    const now = await findMessage(ctx, simplyId);
    throw new MessageNotEditableError(simplyId, now.status);
  }
  return updated;
}
