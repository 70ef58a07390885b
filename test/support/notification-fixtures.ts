// Notification fixtures: people of a team with their tokens, notifications written the one way the
// platform writes them (`notify` in a transaction), installations with preferences, and a
// graphql-ws subscriber of a person's feed that records what it receives.
import { randomBytes } from 'node:crypto';
import { runTransaction } from '../../src/app/transaction.ts';
import type { NotificationType, Preferences } from '../../src/modules/notifications/notification-categories.ts';
import { notify } from '../../src/modules/notifications/notify.service.ts';
import { deviceId } from '../../src/modules/users/users.ids.ts';
import { addMember, type TeamFixture } from './fixtures.ts';
import { serverGraphqlWsClient, type GraphQLErrorShape } from './realtime.ts';
import type { TestServer } from './server.ts';

/** A signed-in person acting in one team. */
export interface Person {
  userSimplyId: string;
  token: string;
  teamSimplyId: string;
}

/** The team's bootstrap user (a team admin) as a Person. */
export function adminOf(team: TeamFixture): Person {
  return { userSimplyId: team.userSimplyId, token: team.userToken, teamSimplyId: team.teamSimplyId };
}

/** A new plain member of `team`. */
export async function newMember(server: TestServer, team: TeamFixture): Promise<Person> {
  const member = await addMember(server, team);
  return { userSimplyId: member.userSimplyId, token: member.token, teamSimplyId: team.teamSimplyId };
}

/** Adds an existing person to another team as a plain member. */
export async function joinTeam(server: TestServer, person: Person, team: TeamFixture): Promise<Person> {
  const { prisma } = server.app.services;
  const { membershipId } = await import('../../src/app/ids.ts');
  const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: person.userSimplyId } });
  await prisma.teamMembership.create({ data: { simplyId: membershipId.create(), teamId: team.teamId, userId: user.id } });
  return { ...person, teamSimplyId: team.teamSimplyId };
}

export interface NotificationSpec {
  type?: NotificationType;
  title?: string | Record<string, string>;
  body?: string | Record<string, string> | null;
  actionUrl?: string;
}

/** Writes a notification for `person` in `team` through `notify`, as a producer would; returns its simplyId. */
export async function notifyMember(server: TestServer, team: TeamFixture, person: Pick<Person, 'userSimplyId'>, spec: NotificationSpec = {}): Promise<string> {
  const { prisma } = server.app.services;
  const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: person.userSimplyId }, select: { id: true } });
  const row = await runTransaction(prisma, (tx) =>
    notify(server.app.services, tx, {
      teamId: team.teamId,
      userId: user.id,
      notificationType: spec.type ?? 'SYSTEM',
      title: spec.title ?? `Notification ${randomBytes(3).toString('hex')}`,
      body: spec.body === undefined ? 'Something happened' : spec.body,
      iconType: 'info',
      actionUrl: spec.actionUrl ?? '/inbox',
      referenceEntityType: 'TEST',
      referenceEntityId: randomBytes(4).toString('hex'),
      source: 'TEST',
      sourceId: randomBytes(8).toString('hex'),
    }),
  );
  if (!row) throw new Error('notify wrote nothing');
  return row.simplyId;
}

/** Several notifications, oldest first; returns their simplyIds in that order. */
export async function notifyMany(server: TestServer, team: TeamFixture, person: Pick<Person, 'userSimplyId'>, specs: NotificationSpec[]): Promise<string[]> {
  const ids: string[] = [];
  for (const spec of specs) ids.push(await notifyMember(server, team, person, spec));
  return ids;
}

/** Registers an installation of `person` with the given preferences (absent keys on); returns its ids. */
export async function registerDevice(
  server: TestServer,
  person: Pick<Person, 'userSimplyId'>,
  preferences: Partial<Preferences> = {},
  platform: 'ios' | 'android' | 'web' = 'ios',
): Promise<{ installationId: string; deviceSimplyId: string }> {
  const { prisma } = server.app.services;
  const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: person.userSimplyId }, select: { id: true } });
  const installationId = `inst-${randomBytes(6).toString('hex')}`;
  const device = await prisma.userDevice.create({
    data: { simplyId: deviceId.create(), userId: user.id, installationId, platform, preferences },
  });
  return { installationId, deviceSimplyId: device.simplyId };
}

export interface FeedEvent {
  type: string;
  notificationSimplyIds: string[];
  unreadCount: number;
  occurredAt: string;
  notification: { simplyId: string; notificationType: string; title: unknown; isRead: boolean } | null;
}

/** A graphql-ws client subscribed to `person`'s notificationEvents (optionally as one installation). */
export function subscribeFeed(server: Pick<TestServer, 'baseUrl' | 'ca'>, person: Person, installationId?: string) {
  const state = { events: [] as FeedEvent[], errors: [] as GraphQLErrorShape[], closeCode: undefined as number | undefined, done: false };
  const client = serverGraphqlWsClient(server, {
    connectionParams: { authorization: `Bearer ${person.token}`, 'X-Team-Id': person.teamSimplyId },
    on: { closed: (event) => (state.closeCode ??= (event as { code?: number })?.code) },
  });
  client.subscribe<{ notificationEvents: FeedEvent }>(
    {
      query: `subscription Feed($installationId: String) { notificationEvents(installationId: $installationId) {
        type notificationSimplyIds unreadCount occurredAt notification { simplyId notificationType title isRead } } }`,
      variables: { installationId },
    },
    {
      next: (result) => {
        if (result.errors) state.errors.push(...(result.errors as GraphQLErrorShape[]));
        if (result.data?.notificationEvents) state.events.push(result.data.notificationEvents);
      },
      error: (error) => {
        if (Array.isArray(error)) state.errors.push(...(error as GraphQLErrorShape[]));
        state.done = true;
      },
      complete: () => (state.done = true),
    },
  );
  return {
    state,
    /** the events about notification `id` */
    about: (id: string) => state.events.filter((e) => e.notificationSimplyIds.includes(id)),
    close: () => client.dispose(),
  };
}

export type FeedSubscriber = ReturnType<typeof subscribeFeed>;
