// The hosted booking flow of a booking link: the one way a booking through a link completes, with a
// verified constituent session. GET /book/<bookingLinkSimplyId> serves a small page (its script is
// booking-page/booking.browser.js, served beside it) that signs the visitor in through constituent
// sign-in and books through the link's public routes with the link's token from the address's
// fragment. Internal-team and unknown links are a plain 404; the page holds no secret.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Temporal } from 'temporal-polyfill';
import type { Services } from '../../app/context.ts';
import { escapeHtml } from '../../app/html-escape.ts';
import { htmlPage, sendHtmlPage } from '../../app/http/link-page.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { bookingLinkId } from './space-bookings.ids.ts';
import { asChannel } from './space-bookings.store.ts';

export const BOOKING_PAGE_PREFIX = '/book/';
const SCRIPT_PATH = `${BOOKING_PAGE_PREFIX}assets/booking.js`;
const SCRIPT = path.join(import.meta.dirname, 'booking-page', 'booking.browser.js');
let script: Buffer | null = null;

const POLICY = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
const STYLE = `<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
label{display:block;margin:.75rem 0 .25rem}input,button{font-size:1rem;padding:.4rem .6rem}
.slot{display:block;width:100%;text-align:left;margin:.25rem 0}.slot[aria-pressed=true]{outline:3px solid #2563eb}
#message{color:#b91c1c;min-height:1.5em}</style>`;

/** JSON inside a script element: nothing in it can end the element */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(config: { bookingLinkSimplyId: string; teamSimplyId: string; timeZone: string; firstDate: string }, name: string): string {
  return htmlPage({
    title: name,
    head: STYLE,
    body: `<h1>${escapeHtml(name)}</h1>
<p id="message" role="status"></p>
<form id="signin"><label for="email">Your email address</label><input id="email" type="email" required autocomplete="email"> <button type="submit">Send me a code</button></form>
<form id="code" hidden><label for="code-input">The code we sent you</label><input id="code-input" inputmode="numeric" required autocomplete="one-time-code"> <button type="submit">Sign in</button></form>
<form id="pick" hidden><label for="date">Day</label><input id="date" type="date" required>
<div id="slots" aria-label="Free times"></div>
<label for="title">What is it for?</label><input id="title" required maxlength="200"> <button id="book" type="submit" disabled>Book</button></form>
<section id="done" hidden><p id="done-status"></p><p>Reference: <code id="done-id"></code></p></section>
<script type="application/json" id="booking-config">${scriptJson(config)}</script>
<script src="${SCRIPT_PATH}"></script>`,
  });
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  sendHtmlPage(req, res, 404, htmlPage({ title: 'Booking link not found', head: STYLE, body: '<h1>Booking link not found</h1><p>This booking link does not exist or is not public.</p>' }), POLICY);
}

export function bookingPageEndpoints(services: Services): HttpEndpoint[] {
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
      return void res.end();
    }
    if (url.pathname === SCRIPT_PATH) {
      script ??= fs.readFileSync(SCRIPT);
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': script.length, 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' });
      return void res.end(req.method === 'HEAD' ? undefined : script);
    }
    const simplyId = url.pathname.slice(BOOKING_PAGE_PREFIX.length);
    const link = bookingLinkId.is(simplyId) ? await services.prisma.spaceBookingLink.findUnique({ where: { simplyId }, include: { channel: true } }) : null;
    if (!link || link.audience === 'INTERNAL_TEAM') return notFound(req, res);
    const team = await services.prisma.team.findUnique({ where: { id: link.teamId }, select: { simplyId: true } });
    if (!team) return notFound(req, res);
    const policy = asChannel(link.channel).settings.availabilityPolicy;
    const firstDate = Temporal.Now.zonedDateTimeISO(policy.timeZone).add({ days: 1 }).toPlainDate().toString();
    sendHtmlPage(req, res, 200, page({ bookingLinkSimplyId: link.simplyId, teamSimplyId: team.simplyId, timeZone: policy.timeZone, firstDate }, link.name), POLICY);
  };
  return [{ prefix: BOOKING_PAGE_PREFIX, route: '/book/{bookingLinkSimplyId}', handle }];
}
