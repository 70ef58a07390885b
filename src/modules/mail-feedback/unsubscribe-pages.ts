// The pages of the unsubscribe link: static text, no address, no team, no script. The form
// posts to the page's own URL (action omitted), which carries the token.
const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.5rem 1.25rem}</style>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;

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
