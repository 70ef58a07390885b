// Subscription: administrative events of the caller's team (credentials and roles changing),
// delivered from whichever instance made the change.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import type { TeamEvent } from '../../app/pubsub/event-bus.ts';
import { subscribeTeamEvents } from './teams.service.ts';

const ActorRef = builder.objectRef<TeamEvent['actor']>('EventActor').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'credential kind: API_KEY, SESSION_TOKEN, USER, ...' }),
    id: t.exposeString('id', { nullable: true }),
  }),
});

const TeamEventRef = builder.objectRef<TeamEvent>('TeamEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type', { description: 'e.g. API_KEY_CREATED, API_KEY_REVOKED, TEAM_ROLE_UPDATED' }),
    resourceType: t.exposeString('resourceType'),
    resourceId: t.exposeString('resourceId'),
    occurredAt: t.exposeString('occurredAt'),
    actor: t.field({ type: ActorRef, resolve: (e) => e.actor }),
  }),
});

builder.subscriptionFields((t) => ({
  teamEvents: t.field({
    type: TeamEventRef,
    authScopes: tier.privileged('TEAM_SETTINGS', 'VIEW'),
    subscribe: (_root, _args, ctx) => subscribeTeamEvents(ctx),
    resolve: (event) => event,
  }),
}));
