// The account a grant is for: the consenting user in the team they chose at consent. oidc-provider
// knows one account id per grant, so both travel in it ("usr-…@team-…"); a token never names a team
// other than the one the user picked, and the user's current role in it decides what it may do.
import { teamId, userId } from '../../app/ids.ts';

export interface OAuthAccount {
  userSimplyId: string;
  teamSimplyId: string;
}

export function accountIdOf(account: OAuthAccount): string {
  return `${account.userSimplyId}@${account.teamSimplyId}`;
}

export function parseAccountId(accountId: unknown): OAuthAccount | null {
  if (typeof accountId !== 'string') return null;
  const [userSimplyId, teamSimplyId, ...rest] = accountId.split('@');
  if (rest.length || !userSimplyId || !teamSimplyId || !userId.is(userSimplyId) || !teamId.is(teamSimplyId)) return null;
  return { userSimplyId, teamSimplyId };
}
