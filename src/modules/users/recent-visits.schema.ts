// GraphQL face of the current user's recent visits in the selected team.
// REST: /v1/users/me/recent-visits in rest-adapter/routes/users.ts.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { suppliedFields } from '../../app/graphql/input-fields.ts';
import type { RecentVisit } from '../../generated/prisma/client.ts';
import { clearRecentVisits, listRecentVisits, recordVisit } from './recent-visits.service.ts';

const RecentVisitRef = builder.objectRef<RecentVisit>('RecentVisit').implement({
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    recentVisitSimplyId: t.exposeString('simplyId'),
    entityType: t.exposeString('entityType'),
    entityId: t.exposeString('entityId'),
    title: t.exposeString('title', { nullable: true }),
    url: t.exposeString('url', { nullable: true, description: 'a path inside the app' }),
    visitedAt: t.field({ type: 'DateTime', resolve: (v) => v.visitedAt }),
  }),
});

const ClearedRef = builder.objectRef<{ cleared: number }>('RecentVisitsCleared').implement({
  fields: (t) => ({ cleared: t.exposeInt('cleared') }),
});

const RecordInput = builder.inputType('RecordRecentVisitInput', {
  fields: (t) => ({
    entityType: t.string({ required: true, description: 'an upper-case identifier such as DATA_RECORD' }),
    entityId: t.string({ required: true }),
    title: t.string(),
    url: t.string({ description: 'a path inside the app, starting with "/"' }),
  }),
});

builder.queryFields((t) => ({
  myRecentVisits: t.field({
    type: [RecentVisitRef],
    description: 'What you opened lately in the selected team, newest first (limit 1-50, default 20)',
    authScopes: tier.signedInMember,
    args: { limit: t.arg.int() },
    resolve: (_root, args, ctx) => listRecentVisits(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  recordRecentVisit: t.field({
    type: RecentVisitRef,
    description: 'Puts an entity on top of your recent visits in the selected team',
    authScopes: tier.signedInMember,
    args: { input: t.arg({ type: RecordInput, required: true }) },
    resolve: (_root, args, ctx) => recordVisit(ctx, suppliedFields(args.input)),
  }),
  clearRecentVisits: t.field({
    type: ClearedRef,
    description: 'Forgets your recent visits in the selected team',
    authScopes: tier.signedInMember,
    resolve: (_root, _args, ctx) => clearRecentVisits(ctx),
  }),
}));
