// What the notifications scenarios share: the person they act as, the section's bed with that
// person, and signing in.
import { ApiClient } from '../events/api-client.ts';
import type { PlatformProcess } from '../events/platform-process.ts';
import type { SectionBed } from '../section-bed.ts';

/** What the bench signs in as: the bootstrap user (a team admin) with a password. */
export interface BenchPerson {
  teamSimplyId: string;
  userSimplyId: string;
  email: string;
  password: string;
  /** the team's API key (collections and automations) */
  apiKey: string;
}

export interface NotificationsBed<S extends string = string> extends SectionBed<S> {
  person: BenchPerson;
}

/** A 1-hour access token of the person (the built-in identity provider). */
export async function signIn(platform: PlatformProcess, person: BenchPerson): Promise<string> {
  const anonymous = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: '', sockets: 1 });
  const answer = await anonymous.request('POST', '/v1/auth/login', { email: person.email, password: person.password });
  if (answer.status !== 200) throw new Error(`login answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body.data.accessToken as string;
}
