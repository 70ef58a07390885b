// The pages of the unsubscribe link: static text, no address, no team, no script. The form
// posts to the page's own URL (action omitted), which carries the token.
import { linkPage } from '../../app/http/link-page.ts';
const page = linkPage;

/** GET: asks; nothing has changed yet. */
export function confirmationPage(): string {
  return page(
    'Unsubscribe',
    `<p>Do you want to stop receiving these messages at this address?</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

/** POST: done (also when it already was). */
export function donePage(): string {
  return page('You are unsubscribed', '<p>This address will not receive these messages from the sender again.</p>');
}

/** The link of a test copy: names no message, so there is nothing to confirm. */
export function testCopyPage(): string {
  return page(
    'Unsubscribe (test copy)',
    `<p>This link comes from a test copy of a message, so it unsubscribes no one and nothing has changed.</p>
<p>In the message as sent, each recipient's link opens a page where they confirm that they want to stop receiving these messages.</p>`,
  );
}
