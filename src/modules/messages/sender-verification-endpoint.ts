// A sender's confirmation link, served by the front door under /sender-verification/ (AppModule.httpEndpoints):
//   GET  /sender-verification/<token>  a page with a button that makes the POST; it changes nothing,
//                                      so a mail scanner that follows every link verifies no one
//   POST /sender-verification/<token>  verifies that one sender (not its domain) and spends the link
// The token is the only authorization: whoever reads the mailbox may confirm it. A token no active
// sender holds (never minted, used, replaced) is 404, an expired one 410, each with a page saying so.
import type { MessageSender } from '../../generated/prisma/client.ts';
import type { Services } from '../../app/context.ts';
import { sendError } from '../../app/http/envelope.ts';
import { sendLinkPage } from '../../app/http/link-page.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { confirmationPage, confirmedPage, expiredLinkPage, unknownLinkPage } from './sender-verification-pages.ts';
import { SENDER_TOKEN_PATTERN, SENDER_VERIFICATION_PATH, senderTokenHash, tokenMatches } from './sender-verification.ts';

export function senderVerificationEndpoints(services: Services): HttpEndpoint[] {
  return [
    {
      prefix: SENDER_VERIFICATION_PATH,
      route: `${SENDER_VERIFICATION_PATH}{token}`,
      handle: async (req, res, url, requestId) => {
        const method = req.method ?? 'GET';
        // the body means nothing here: read and dropped, so the connection stays usable
        req.resume();
        if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
          return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD, POST', headers: { Allow: 'GET, HEAD, POST' } });
        }
        const found = await senderOfToken(services, url.pathname.slice(SENDER_VERIFICATION_PATH.length));
        if (found.state === 'unknown') return sendLinkPage(req, res, 404, unknownLinkPage());
        if (found.state === 'expired') return sendLinkPage(req, res, 410, expiredLinkPage());
        const { sender, hash } = found;
        if (method !== 'POST') return sendLinkPage(req, res, 200, confirmationPage(await teamName(services, sender.teamId), sender.emailAddress!));
        const now = new Date();
        // the same conditions again in the write: of two concurrent posts, one verifies, the other finds the link spent
        const { count } = await services.prisma.messageSender.updateMany({
          where: { id: sender.id, teamId: sender.teamId, verificationTokenHash: hash, verificationStatus: 'PENDING', archivedAt: null, verificationExpiresAt: { gt: now } },
          data: { verificationStatus: 'VERIFIED', verifiedAt: now, verificationTokenHash: null, verificationExpiresAt: null },
        });
        if (count === 0) return sendLinkPage(req, res, 404, unknownLinkPage());
        sendLinkPage(req, res, 200, confirmedPage(sender.emailAddress!));
      },
    },
  ];
}

type TokenLookup = { state: 'unknown' } | { state: 'expired' } | { state: 'valid'; sender: MessageSender; hash: string };

async function senderOfToken(services: Services, token: string): Promise<TokenLookup> {
  if (!SENDER_TOKEN_PATTERN.test(token)) return { state: 'unknown' };
  const hash = senderTokenHash(services.config, token);
  const sender = await services.prisma.messageSender.findUnique({ where: { verificationTokenHash: hash } });
  if (!sender || !tokenMatches(sender.verificationTokenHash, hash)) return { state: 'unknown' };
  if (sender.archivedAt || sender.verificationStatus !== 'PENDING' || !sender.emailAddress) return { state: 'unknown' };
  if (!sender.verificationExpiresAt || sender.verificationExpiresAt.getTime() <= Date.now()) return { state: 'expired' };
  return { state: 'valid', sender, hash };
}

async function teamName(services: Services, teamId: bigint): Promise<string> {
  const team = await services.prisma.team.findUnique({ where: { id: teamId }, select: { name: true } });
  return team?.name ?? '';
}

