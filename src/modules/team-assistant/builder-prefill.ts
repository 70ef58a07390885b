// The builder prefill (Document 2 §4.9 rule 6): the assistant may prepare the fields of a message
// for the member's outgoing-message builder, never its recipients, and never send anything. The
// web app receives it through a PREFILL_SUPPORTED_BUILDER intent carrying a random nonce, redeems
// the nonce once within five minutes, and opens the builder with the fields filled in; the member
// then chooses recipients and sends (or not) through the builder as always. Only the nonce's
// digest is stored; a used, expired or unknown nonce, or another member's, is the same 404.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import { requireAssistant } from './team-assistant.access.ts';
import type { AssistantTool } from './tool-types.ts';

export const PREFILL_TTL_MS = 5 * 60_000;
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** version-1 builderPrefill: strict, so recipients (or anything else) cannot ride along */
const builderPrefill = z.strictObject({
  details: z.strictObject({
    internalName: z.string().max(200).optional(),
    subjectLine: z.string().max(500).optional(),
    deliveryMethod: z.enum(['EMAIL', 'SMS', 'WHATSAPP', 'FACEBOOK']).optional(),
  }),
  content: z.strictObject({ text: z.string().max(20_000).optional(), html: z.string().max(100_000).optional() }),
  schedule: z.strictObject({ sendAt: z.iso.datetime({ offset: true }) }).optional(),
});

export class PrefillNotFoundError extends ApiError {
  constructor() {
    super(404, 'TEAM_AGENT_PREFILL_NOT_FOUND', 'No prefill of yours has this nonce: it was used already, expired after five minutes, or never existed');
  }
}

/** Web clients only (contextSnapshot.platform "WEB"): the builder it opens is the web app's. */
export const prepareMessagePrefill: AssistantTool = {
  name: 'prepare_message_builder_prefill',
  description:
    "Prepares a message's details, content and optional schedule for the member's message builder (never recipients; nothing is sent). The member opens it from your reply.",
  input: builderPrefill,
  level: 'VIEW',
  async run(ctx, input: z.output<typeof builderPrefill>, use) {
    const nonce = randomBytes(32).toString('base64url');
    const team = ctx.principal.team!;
    const key = { teamId_runId_toolCallId: { teamId: team.id, runId: use.runId, toolCallId: use.toolCallId } };
    const expiresAt = new Date(Date.now() + PREFILL_TTL_MS);
    // a call resumed after a crash prepares again under the same call: the newest nonce stands
    await ctx.services.prisma.assistantPrefill.upsert({
      where: key,
      create: { teamId: team.id, userId: use.userId, runId: use.runId, toolCallId: use.toolCallId, nonceHash: hashToken(nonce), builder: 'OUTGOING_MESSAGE', payload: input as never, expiresAt },
      update: { nonceHash: hashToken(nonce), payload: input as never, expiresAt, consumedAt: null },
    });
    return {
      result: { prepared: true, note: 'The member can open the builder from your reply; they choose recipients and send it themselves.' },
      summary: 'Prepared a message for the builder',
      sources: [],
      uiIntent: { type: 'PREFILL_SUPPORTED_BUILDER', builder: 'OUTGOING_MESSAGE', prefillNonce: nonce, expiresAt: expiresAt.toISOString() },
    };
  },
};

export interface RedeemedPrefill {
  version: 1;
  builder: string;
  builderPrefill: unknown;
}

/** The prefill behind `nonce`, once: the caller's own, unexpired and unused. */
export async function redeemPrefill(ctx: RequestContext, nonce: string): Promise<RedeemedPrefill> {
  const { teamId, userId } = requireAssistant(ctx);
  if (!NONCE.test(nonce)) throw new PrefillNotFoundError();
  const [row] = await ctx.services.prisma.assistantPrefill.updateManyAndReturn({
    where: { nonceHash: hashToken(nonce), teamId, userId, consumedAt: null, expiresAt: { gt: new Date() } },
    data: { consumedAt: new Date() },
  });
  if (!row) throw new PrefillNotFoundError();
  return { version: 1, builder: row.builder, builderPrefill: row.payload };
}
