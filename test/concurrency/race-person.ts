// The signed-in person a race on a user-only route acts as: a new member of the race's team, so
// races on one person's things (devices, sessions, second factor) never share that person.
import { randomBytes } from 'node:crypto';
import { addMember } from '../support/fixtures.ts';
import type { RaceKit } from './race-kit.ts';

export const MEMBER_PASSWORD = 'correct horse battery staple';

export interface RacePerson {
  token: string;
  teamId: string;
  userId: bigint;
  userSimplyId: string;
  email: string;
}

export async function racePerson(kit: RaceKit): Promise<RacePerson> {
  const member = await addMember(kit.server, kit.team);
  const user = await kit.server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: member.userSimplyId }, select: { id: true } });
  return { token: member.token, teamId: kit.team.teamSimplyId, userId: user.id, userSimplyId: member.userSimplyId, email: member.email };
}

/** A person signed in with the password: the access token belongs to a sign-in session. */
export async function signedInPerson(kit: RaceKit): Promise<RacePerson & { sessionSimplyId: string }> {
  const person = await racePerson(kit);
  const login = await kit.server.request('POST', '/v1/auth/login', { body: { email: person.email, password: MEMBER_PASSWORD } });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status} ${login.text}`);
  const token = login.body.data.accessToken as string;
  const session = await kit.server.app.services.prisma.userSession.findFirstOrThrow({ where: { userId: person.userId, revokedAt: null }, orderBy: { id: 'desc' } });
  return { ...person, token, sessionSimplyId: session.simplyId };
}

export const installation = () => `race-${randomBytes(5).toString('hex')}`;

/** user-only routes: API keys get 403 IDP_REQUIRED (tested elsewhere); the races run as a person */
export const PERSON_ONLY = ['team-admin user'] as const;
