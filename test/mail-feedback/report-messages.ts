// Delivery status notifications (RFC 3464) and complaint reports (ARF, RFC 5965) as receiving
// servers send them: multipart/report with a human-readable part, the machine-readable part and
// the original message (or its headers), CRLF line ends, folded fields where servers fold them.
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface DsnRecipientFields {
  action: string;
  status: string;
  finalRecipient: string;
  diagnostic?: string;
}

const CRLF = '\r\n';
/** long diagnostics come folded at a space, as servers fold them */
function fold(text: string): string {
  const at = text.indexOf(' ', 30);
  return at < 0 ? text : `${text.slice(0, at)}${CRLF}   ${text.slice(at)}`;
}
const headersOf = (raw: string) => raw.slice(0, raw.indexOf(`${CRLF}${CRLF}`) + 2);

export function deliveryStatusNotification(options: { returnPath: string; recipients: DsnRecipientFields[]; original: string }): string {
  const boundary = `dsn-${randomBytes(6).toString('hex')}`;
  const perRecipient = options.recipients.map((r) =>
    [
      `Final-Recipient: rfc822; ${r.finalRecipient}`,
      `Original-Recipient: rfc822;${r.finalRecipient}`,
      `Action: ${r.action}`,
      `Status: ${r.status}`,
      'Remote-MTA: dns; mx.receiver.example',
      ...(r.diagnostic ? [`Diagnostic-Code: smtp; ${fold(r.diagnostic)}`] : []),
      'Last-Attempt-Date: Tue, 24 Nov 2026 18:40:00 +0000',
    ].join(CRLF),
  );
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.receiver.example>',
    `To: ${options.returnPath}`,
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <${boundary}@mx.receiver.example>`,
    'Date: Tue, 24 Nov 2026 18:40:01 +0000',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status;${CRLF}\tboundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.receiver.example.',
    '',
    "I'm sorry to have to inform you about your message.",
    '',
    `--${boundary}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.receiver.example',
    'X-Postfix-Queue-ID: 4Z2abc',
    'Arrival-Date: Tue, 24 Nov 2026 18:39:58 +0000',
    '',
    perRecipient.join(`${CRLF}${CRLF}`),
    '',
    `--${boundary}`,
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    '',
    headersOf(options.original),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

export function complaintReport(options: { returnPath: string; feedbackType?: string; originalRcptTo?: string; original: string }): string {
  const boundary = `arf-${randomBytes(6).toString('hex')}`;
  return [
    'From: Feedback Loop <fbl@isp.example>',
    `To: ${options.returnPath}`,
    'Subject: FW: complaint about a message',
    `Message-ID: <${boundary}@isp.example>`,
    'Date: Tue, 24 Nov 2026 18:45:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset="US-ASCII"',
    'Content-Transfer-Encoding: 7bit',
    '',
    'This is an email abuse report for an email message received from IP 192.0.2.1.',
    '',
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${options.feedbackType ?? 'abuse'}`,
    'User-Agent: SomeGenerator/1.0',
    'Version: 1',
    `Original-Mail-From: <${options.returnPath}>`,
    ...(options.originalRcptTo ? [`Original-Rcpt-To: <${options.originalRcptTo}>`] : []),
    'Arrival-Date: Tue, 24 Nov 2026 18:40:00 +0000',
    'Source-IP: 192.0.2.1',
    'Reported-Domain: svc.example',
    '',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    options.original,
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

/** Sends a raw message over SMTP to the listener, as a receiving server's MTA does (null sender). */
export async function sendToListener(port: number, to: string | string[], raw: string | Buffer): Promise<{ response: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 15000 });
  try {
    const info = await transport.sendMail({ envelope: { from: '', to }, raw });
    return { response: info.response };
  } finally {
    transport.close();
  }
}
