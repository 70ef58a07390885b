// The pages of a sender's confirmation link: static text and one form, no script. The form posts to
// the page's own URL (action omitted), which carries the token. Every value shown is escaped.
import { escapeHtml } from '../../app/html-escape.ts';
import { linkPage } from '../../app/http/link-page.ts';

const page = linkPage;

/** GET: asks; nothing has changed yet (a link scanner that fetches it verifies nothing). */
export function confirmationPage(teamName: string, address: string): string {
  return page(
    'Confirm this sender address',
    `<p>The team <strong>${escapeHtml(teamName)}</strong> wants to send email from <strong>${escapeHtml(address)}</strong>.</p>
<p>Confirm only if you manage this mailbox and agree.</p>
<form method="post">
<button type="submit">Confirm ${escapeHtml(address)}</button>
</form>`,
  );
}

/** POST: done. */
export function confirmedPage(address: string): string {
  return page('Address confirmed', `<p>${escapeHtml(address)} is now a verified sender address of the team. You can close this page.</p>`);
}

/** A token no sender holds: never minted, already used, or replaced by a newer link. */
export function unknownLinkPage(): string {
  return page('This link is not valid', '<p>The link was already used, was replaced by a newer confirmation mail, or does not exist. If the address still needs confirming, ask the team to send a new confirmation mail.</p>');
}

export function expiredLinkPage(): string {
  return page('This link has expired', '<p>Confirmation links work for 24 hours. Ask the team to send a new confirmation mail.</p>');
}
