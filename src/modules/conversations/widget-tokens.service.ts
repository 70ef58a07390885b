// Visitor tokens of a chat widget (docs/api/conversations.md "Visitor tokens"): short-lived bearer
// credentials (svc_wvt_…, one hour) of one visitor of one widget, which reach that visitor's own
// conversations of that widget and nothing else (the widgetVisitor tier; every other tier refuses
// the WIDGET_VISITOR kind). Two ways in, one minting:
//   - the team's server, with its own credential (POST /v1/conversations/widgets/{id}/tokens):
//     the identity it names is taken as verified;
//   - the widget's page, without a credential (openWidgetVisitorSession): an identity must carry
//     the team server's signature (widget-identity.ts); without one the visitor is anonymous,
//     if the widget allows it, and may come back with the resume secret its first session answered.
import type pg from 'pg';
import type { RequestContext, Services } from '../../app/context.ts';
import type { BearerTokenKind } from '../../app/auth/authenticator.ts';
import { ANONYMOUS, hasFeature, hasScope, type Principal } from '../../app/auth/principal.ts';
import { constantTimeEqual, hashToken, WIDGET_VISITOR_TOKEN_PREFIX } from '../../app/auth/tokens.ts';
import { NotFoundError, UnauthenticatedError } from '../../app/errors.ts';
import { randomSecret } from '../../app/ids.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { TABLE_FEATURE } from './conversation-access.ts';
import { findWidget, appearanceOf, type WidgetRow } from './widgets.service.ts';
import { openIdentitySecret } from './widget-identity-secret.ts';
import { useSignatureOnce, verifyIdentitySignature } from './widget-identity.ts';
import { WidgetDisabledError, WidgetIdentityRequiredError, WidgetVisitorResumeInvalidError } from './widget.errors.ts';
import { conversationWidgetId, widgetVisitorId } from './widget.ids.ts';
import { tokenInput, WIDGET_LIMITS, type Appearance, type TokenInput } from './widget.input.ts';

export interface VisitorView {
  visitorSimplyId: string;
  isVerified: boolean;
  isSimulated: boolean;
  name: string | null;
  email: string | null;
}

/** What the widget's page needs to show itself (nothing of the team's settings beyond it). */
export interface PublicWidget {
  widgetSimplyId: string;
  appearance: Appearance;
  identityVerification: string;
}

export interface MintedToken {
  token: string;
  expiresAt: Date;
  visitor: VisitorView;
  /** the secret that resumes this visitor later (each use answers a new one); kept by the visitor's browser */
  visitorSecret: string;
  widget: PublicWidget;
}

export const publicWidget = (w: WidgetRow): PublicWidget => ({ widgetSimplyId: w.simplyId, appearance: appearanceOf(w), identityVerification: w.identityVerification });

interface VisitorRow {
  id: bigint;
  simplyId: string;
  isVerified: boolean;
  isSimulated: boolean;
  name: string | null;
  email: string | null;
}

const visitorView = (v: VisitorRow): VisitorView => ({ visitorSimplyId: v.simplyId, isVerified: v.isVerified, isSimulated: v.isSimulated, name: v.name, email: v.email });
const VISITOR_COLUMNS = `id, "simplyId", "isVerified", "isSimulated", name, email`;

/** How the visitor is known: signed or named by the team (verified), coming back (resume), or new and anonymous. */
type Who =
  | { kind: 'VERIFIED'; externalId: string; email: string | null; name: string | null; signature?: { value: string; expiresAt: Date } }
  | { kind: 'RESUME'; visitorSimplyId: string; visitorSecret: string }
  | { kind: 'ANONYMOUS'; simulated?: { name: string | null; email: string | null } };

/** Writes the visitor (found, made or refreshed) and a new token, in one transaction. */
async function mint(services: Services, widget: WidgetRow, who: Who): Promise<MintedToken> {
  const token = WIDGET_VISITOR_TOKEN_PREFIX + randomSecret();
  const visitorSecret = randomSecret(24);
  const expiresAt = new Date(Date.now() + WIDGET_LIMITS.tokenSeconds * 1000);
  const visitor = await inTransaction(services.pool, async (db) => {
    let row: VisitorRow;
    if (who.kind === 'VERIFIED') {
      if (who.signature) await useSignatureOnce(db, widget.teamId, widget.id, who.signature.value, who.signature.expiresAt);
      const { rows } = await db.query(
        `INSERT INTO "ConversationWidgetVisitor" ("simplyId", "teamId", "widgetId", "externalId", "isVerified", name, email, "resumeSecretHash")
         VALUES ($1, $2, $3, $4, true, $5, $6, $7)
         ON CONFLICT ("teamId", "widgetId", "externalId") DO UPDATE
           SET name = COALESCE(EXCLUDED.name, "ConversationWidgetVisitor".name), email = COALESCE(EXCLUDED.email, "ConversationWidgetVisitor".email),
               "resumeSecretHash" = EXCLUDED."resumeSecretHash", "lastSeenAt" = now()
         RETURNING ${VISITOR_COLUMNS}`,
        [widgetVisitorId.create(), widget.teamId, widget.id, who.externalId, who.name, who.email, hashToken(visitorSecret)],
      );
      row = rows[0];
    } else if (who.kind === 'RESUME') {
      const { rows } = await db.query(
        `SELECT ${VISITOR_COLUMNS}, "resumeSecretHash" FROM "ConversationWidgetVisitor" WHERE "teamId" = $1 AND "widgetId" = $2 AND "simplyId" = $3 FOR UPDATE`,
        [widget.teamId, widget.id, who.visitorSimplyId],
      );
      const found = rows[0] as (VisitorRow & { resumeSecretHash: string | null }) | undefined;
      if (!found || !found.resumeSecretHash || !constantTimeEqual(found.resumeSecretHash, hashToken(who.visitorSecret))) throw new WidgetVisitorResumeInvalidError();
      // an anonymous visitor may not come back through a widget that now requires verified visitors
      if (widget.identityVerification === 'REQUIRED' && !found.isVerified && !found.isSimulated) throw new WidgetIdentityRequiredError();
      // each resume answers a new secret: a copied one works once at most
      await db.query(`UPDATE "ConversationWidgetVisitor" SET "resumeSecretHash" = $3, "lastSeenAt" = now() WHERE "teamId" = $1 AND id = $2`, [widget.teamId, found.id, hashToken(visitorSecret)]);
      row = found;
    } else {
      const { rows } = await db.query(
        `INSERT INTO "ConversationWidgetVisitor" ("simplyId", "teamId", "widgetId", "isSimulated", name, email, "resumeSecretHash")
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${VISITOR_COLUMNS}`,
        [widgetVisitorId.create(), widget.teamId, widget.id, who.simulated !== undefined, who.simulated?.name ?? null, who.simulated?.email ?? null, hashToken(visitorSecret)],
      );
      row = rows[0];
    }
    await db.query(`INSERT INTO "ConversationWidgetToken" ("teamId", "widgetId", "visitorId", "tokenHash", "expiresAt") VALUES ($1, $2, $3, $4, $5)`, [
      widget.teamId,
      widget.id,
      row.id,
      hashToken(token),
      expiresAt,
    ]);
    await prune(db, widget);
    return row;
  });
  return { token, expiresAt, visitor: visitorView(visitor), visitorSecret, widget: publicWidget(widget) };
}

/** Tokens and used signatures past their time go with the next minting of the widget (an indexed range; no job needed). */
async function prune(db: pg.PoolClient, widget: WidgetRow): Promise<void> {
  await db.query(`DELETE FROM "ConversationWidgetToken" WHERE "teamId" = $1 AND "widgetId" = $2 AND "expiresAt" < now() - interval '1 hour'`, [widget.teamId, widget.id]);
  await db.query(`DELETE FROM "ConversationWidgetSignatureUse" WHERE "teamId" = $1 AND "widgetId" = $2 AND "expiresAt" < now()`, [widget.teamId, widget.id]);
}

function rawIdentity(raw: unknown): { email: string | null; name: string | null } {
  const identity = (raw as { identity?: { email?: unknown; name?: unknown } } | null)?.identity;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return { email: text(identity?.email), name: text(identity?.name) };
}

/** Who the input names; `trusted`: a team credential asks, so an identity needs no signature. */
function whoOf(widget: WidgetRow, input: TokenInput, raw: unknown, services: Services, trusted: boolean): Who {
  if (input.identity) {
    const identity = input.identity;
    let signature: { value: string; expiresAt: Date } | undefined;
    if (!trusted) {
      const signed = rawIdentity(raw);
      const secret = openIdentitySecret(services, widget.teamId, widget.simplyId, widget.identitySecretCiphertext);
      const { expiresAt } = verifyIdentitySignature(secret, widget.simplyId, { visitorId: identity.visitorId, ...signed, timestamp: identity.timestamp, signature: identity.signature });
      signature = { value: identity.signature!, expiresAt };
    }
    return { kind: 'VERIFIED', externalId: identity.visitorId, email: identity.email ?? null, name: identity.name ?? null, signature };
  }
  if (input.resume) return { kind: 'RESUME', ...input.resume };
  if (widget.identityVerification === 'REQUIRED') throw new WidgetIdentityRequiredError();
  return { kind: 'ANONYMOUS' };
}

/** POST /v1/conversations/widgets/{id}/tokens: the team's server mints a token for one of its visitors (edit level, as the tier checks). */
export async function createWidgetToken(ctx: RequestContext, widgetSimplyId: string, raw: unknown): Promise<MintedToken> {
  const widget = await findWidget(ctx, widgetSimplyId);
  const input = parseInput(tokenInput, raw ?? {}, 'Invalid visitor token request');
  if (!widget.isEnabled) throw new WidgetDisabledError(widget.simplyId);
  return mint(ctx.services, widget, whoOf(widget, input, raw, ctx.services, true));
}

/**
 * openWidgetVisitorSession: the widget's page, without a credential (rate-limited per address like
 * any anonymous call). A team credential sent along is used as on the REST route (its own widgets
 * only); a visitor's or constituent's token is refused by what it is.
 */
export async function openWidgetVisitorSession(ctx: RequestContext, widgetSimplyId: string, raw: unknown): Promise<MintedToken> {
  const p = ctx.principal;
  if (p.kind !== 'ANONYMOUS') {
    if (p.team === null || p.kind === 'CONSTITUENT' || p.kind === 'WIDGET_VISITOR' || !hasFeature(p, TABLE_FEATURE, 'EDIT') || !hasScope(p, 'conversations:write')) {
      throw new UnauthenticatedError('The widget’s page opens a visitor session without a credential; a team’s server uses POST /v1/conversations/widgets/{id}/tokens');
    }
    return createWidgetToken(ctx, widgetSimplyId, raw);
  }
  conversationWidgetId.assert(widgetSimplyId, 'widgetSimplyId');
  const input = parseInput(tokenInput, raw ?? {}, 'Invalid visitor session request');
  const widget = await ctx.services.prisma.conversationWidget.findFirst({ where: { simplyId: widgetSimplyId } });
  if (!widget) throw new NotFoundError('Widget', widgetSimplyId);
  if (!widget.isEnabled) throw new WidgetDisabledError(widget.simplyId);
  return mint(ctx.services, widget, whoOf(widget, input, raw, ctx.services, false));
}

/** A simulated visitor of the widget (POST …/simulate): anonymous, marked so analytics leave it out. */
export async function mintSimulatedVisitor(services: Services, widget: WidgetRow, name: string | null, email: string | null): Promise<MintedToken> {
  return mint(services, widget, { kind: 'ANONYMOUS', simulated: { name, email } });
}

interface TokenRow {
  teamId: bigint;
  teamSimplyId: string;
  teamName: string;
  widgetId: bigint;
  widgetSimplyId: string;
  visitorId: bigint;
  visitorSimplyId: string;
  isVerified: boolean;
  isSimulated: boolean;
  expiresAt: Date;
}

/**
 * The authenticator's reading of svc_wvt_ tokens: one indexed read, cached like other credentials
 * and dropped on every instance when the team's widgets change (widgets.service.ts). A disabled
 * widget (but for an agent's simulated visitor: previews work before a widget is switched on), or
 * one that now requires verified visitors for an anonymous one, ends its tokens.
 */
export function widgetVisitorTokens(services: Services): BearerTokenKind {
  return {
    prefix: WIDGET_VISITOR_TOKEN_PREFIX,
    async load(token) {
      const { rows } = await services.pool.query<TokenRow>(
        `SELECT t."teamId", tm."simplyId" AS "teamSimplyId", tm.name AS "teamName", w.id AS "widgetId", w."simplyId" AS "widgetSimplyId",
                v.id AS "visitorId", v."simplyId" AS "visitorSimplyId", v."isVerified", v."isSimulated", t."expiresAt"
           FROM "ConversationWidgetToken" t
           JOIN "ConversationWidget" w ON w."teamId" = t."teamId" AND w.id = t."widgetId"
           JOIN "ConversationWidgetVisitor" v ON v."teamId" = t."teamId" AND v.id = t."visitorId"
           JOIN "Team" tm ON tm.id = t."teamId"
          WHERE t."tokenHash" = $1 AND t."expiresAt" > now() AND (w."isEnabled" OR v."isSimulated")
            AND (w."identityVerification" <> 'REQUIRED' OR v."isVerified" OR v."isSimulated")`,
        [hashToken(token)],
      );
      const row = rows[0];
      if (!row) throw new UnauthenticatedError('The widget visitor token is not valid or has expired: open a new visitor session');
      const teamId = BigInt(row.teamId);
      const principal: Principal = {
        ...ANONYMOUS,
        kind: 'WIDGET_VISITOR',
        credentialId: row.visitorSimplyId,
        team: { id: teamId, simplyId: row.teamSimplyId, name: row.teamName },
        // no OAuth scope and no feature: every scope-checking tier refuses it
        scopes: new Set(),
        features: new Map(),
        expiresAt: row.expiresAt,
        widgetVisitor: {
          widgetId: BigInt(row.widgetId),
          widgetSimplyId: row.widgetSimplyId,
          visitorId: BigInt(row.visitorId),
          visitorSimplyId: row.visitorSimplyId,
          isVerified: row.isVerified,
          isSimulated: row.isSimulated,
        },
      };
      return { principal, tags: { teamId } };
    },
  };
}

