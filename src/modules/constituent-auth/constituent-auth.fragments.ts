// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const CONSTITUENT_VERIFICATION = fragment('ConstituentVerificationFields', 'ConstituentVerification', 'verificationSimplyId expiresAt');
export const CONSTITUENT_TOKENS = fragment('ConstituentTokensFields', 'ConstituentTokens', 'accessToken refreshToken accessTokenExpiresAt refreshTokenExpiresAt');
export const CONSTITUENT_PROFILE = fragment(
  'ConstituentProfileFields',
  'ConstituentProfile',
  'simplyId sessions { sessionSimplyId platform deviceName lastActiveAt createdAt current }',
);
