// Who may see a served page: the one place the serving handler (serve-endpoint.ts) asks, on every
// request, before answering with a page's stored rendering (also when the page comes from the
// in-memory cache), so a gated page is never answered from a cache to someone it does not admit.
//
// A page in no enabled access area is public. A page in one (access-gates.ts: its own area or its
// nearest ancestor's) is answered, privately and never stored by any cache, only to a visitor
// signed in on the site (served-signin.ts: the access-token cookie) as a constituent of the site's
// team whose record the area lets in. Everyone else gets the sign-in page (401) or, signed in but
// not let in, the no-access page (403); never the content. An expired access token is renewed with
// the refresh cookie by a redirect to the same address that sets the new cookies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import { refreshConstituentSession } from '../constituent-auth/index.ts';
import { admitsRecord } from './access-gates.ts';
import type { ServedPage, ServedSite } from './serve-site.ts';
import { servedGate } from './served-gates.ts';
import { basePathOf, clearedCookies, cookiePrincipal, redirectTo, refreshCookie, sendSignInPage, sessionCookies, visitorContext } from './served-signin.ts';

export type ServedPageAccess =
  /** `private`: the answer is for this visitor only (Cache-Control: private, no-store) */
  | { allowed: true; private?: boolean }
  /**
   * `status` (401, 403 or 404; 404 when absent) with `headers` (e.g. a Location to sign in); or
   * `send`, which answers the request itself (the sign-in page)
   */
  | { allowed: false; status?: number; headers?: Record<string, string>; send?: (req: IncomingMessage, res: ServerResponse) => void };

export async function servedPageAccess(services: Services, request: IncomingMessage, site: ServedSite, page: ServedPage): Promise<ServedPageAccess> {
  const area = await servedGate(services, site, page.id);
  if (!area) return { allowed: true };
  const base = basePathOf(request, site);
  const here = (request.url ?? '/').split('?')[0]!;
  const principal = await cookiePrincipal(services, request);
  if (principal && principal.team?.id === site.teamId) {
    if (await admitsRecord(services, site.teamId, area, principal.constituent!.dataRecordId)) return { allowed: true, private: true };
    return {
      allowed: false,
      status: 403,
      send: (req, res) => sendSignInPage(req, res, { status: 403, siteName: site.name, base, next: here, step: 'denied', message: area.signInMessage }),
    };
  }
  // no valid access token (a valid one of another team's site is not renewed here: signing in replaces it)
  const refreshToken = principal ? null : refreshCookie(request);
  if (refreshToken) {
    try {
      const tokens = await refreshConstituentSession(visitorContext(services, request), { refreshToken });
      return { allowed: false, status: 303, send: (_req, res) => redirectTo(res, here, sessionCookies(tokens, base)) };
    } catch {
      // used up, expired or ended: sign in again (the stale cookies go)
      return signIn(site, base, here, area.signInMessage, clearedCookies(base));
    }
  }
  return signIn(site, base, here, area.signInMessage);
}

function signIn(site: ServedSite, base: string, here: string, message: string | null, cookies?: string[]): ServedPageAccess {
  return {
    allowed: false,
    status: 401,
    send: (req, res) => sendSignInPage(req, res, { status: 401, siteName: site.name, base, next: here, step: 'email', message, headers: cookies ? { 'set-cookie': cookies } : undefined }),
  };
}
