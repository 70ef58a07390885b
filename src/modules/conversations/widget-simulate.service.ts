// POST /v1/conversations/widgets/{id}/simulate (docs/api/conversations.md "Previewing a widget"): an
// agent sees the widget as a visitor would. A simulated visitor (marked, so analytics leave it out)
// gets a token and, with a first message, a conversation marked simulated (its subject says so)
// that agents can answer from the inbox like any other. The answer is what the widget would show:
// its look, the conversation and its messages, and a preview URL of the widget's own page that
// opens as that visitor (the token travels in the URL's fragment, which is never sent to a server).
import type { RequestContext } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { frameUrl } from './widget-links.ts';
import { mintSimulatedVisitor, widgetVisitorTokens, type MintedToken } from './widget-tokens.service.ts';
import { createVisitorConversation, startVisitorConversation, type VisitorConversation, type VisitorMessage } from './widget-visitor.service.ts';
import { findWidget } from './widgets.service.ts';
import { simulateInput } from './widget.input.ts';

export interface WidgetSimulation extends Omit<MintedToken, 'visitorSecret'> {
  conversation: VisitorConversation;
  messages: VisitorMessage[];
  previewUrl: string;
}

export async function simulateWidget(ctx: RequestContext, widgetSimplyId: string, raw: unknown): Promise<WidgetSimulation> {
  const widget = await findWidget(ctx, widgetSimplyId);
  const input = parseInput(simulateInput, raw ?? {}, 'Invalid widget simulation');
  // a disabled widget can still be previewed: that is how a team tries it before switching it on
  const minted = await mintSimulatedVisitor(ctx.services, widget, input.visitorName ?? null, input.visitorEmail ?? null);
  const { principal } = await widgetVisitorTokens(ctx.services).load(minted.token);
  const asVisitor: RequestContext = { ...ctx, principal };
  let conversation: VisitorConversation;
  const messages: VisitorMessage[] = [];
  if (input.message) {
    const started = await startVisitorConversation(asVisitor, { content: input.message });
    conversation = started.conversation;
    messages.push(started.message);
  } else {
    const row = await createVisitorConversation(asVisitor, { visitorName: input.visitorName ?? null, visitorEmail: input.visitorEmail ?? null });
    conversation = { conversationSimplyId: row.simplyId, status: row.status, createdAt: row.createdAt, lastMessageAt: row.createdAt };
  }
  const { visitorSecret: _secret, ...token } = minted;
  return { ...token, conversation, messages, previewUrl: `${frameUrl(ctx.services, widget.simplyId)}#token=${encodeURIComponent(minted.token)}` };
}
