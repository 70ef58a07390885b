// Whether a conversation is with a chat widget's visitor, as agents see it (docs/api/conversations.md
// "The conversation"): which widget, which visitor (and whether the team's server vouched for them)
// and whether it is a widget preview (POST …/widgets/{id}/simulate). Read through a per-request
// loader: a page of conversations costs one statement however many rows it has.
import type { RequestContext } from '../../app/context.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { ConversationRow } from './conversations.sql.ts';

export interface WidgetOrigin {
  widgetSimplyId: string;
  widgetName: string;
  visitorSimplyId: string;
  /** the team's server signed who the visitor is */
  visitorIsVerified: boolean;
  /** an agent's preview of the widget: no real visitor, left out of analytics */
  isSimulated: boolean;
}

/** The conversation's widget visitor, or null (not a widget conversation, or its widget was deleted). */
export function widgetOriginOf(ctx: RequestContext, c: Pick<ConversationRow, 'id'>): Promise<WidgetOrigin | null> {
  const team = requireTeam(ctx);
  const loader = requestLoader<bigint, WidgetOrigin | null>(
    ctx,
    'conversations.widgetOrigin',
    async (ids) => {
      const { rows } = await ctx.services.pool.query(
        `SELECT t."conversationId", w."simplyId" AS "widgetSimplyId", w.name AS "widgetName", v."simplyId" AS "visitorSimplyId",
                v."isVerified" AS "visitorIsVerified", t."isSimulated"
           FROM "ConversationWidgetThread" t
           JOIN "ConversationWidget" w ON w."teamId" = t."teamId" AND w.id = t."widgetId"
           JOIN "ConversationWidgetVisitor" v ON v."teamId" = t."teamId" AND v.id = t."visitorId"
          WHERE t."teamId" = $1 AND t."conversationId" = ANY($2::bigint[])`,
        [team.id, ids.map(String)],
      );
      const byId = new Map(rows.map((r) => [String(r.conversationId), r as WidgetOrigin]));
      return ids.map((id) => {
        const r = byId.get(String(id));
        return r ? { widgetSimplyId: r.widgetSimplyId, widgetName: r.widgetName, visitorSimplyId: r.visitorSimplyId, visitorIsVerified: r.visitorIsVerified, isSimulated: r.isSimulated } : null;
      });
    },
    String,
  );
  return loader.load(c.id);
}
