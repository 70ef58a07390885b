// Mails as clients send them, for the email channel's tests: raw RFC 5322 text built here (so a
// test controls every header, mutated or missing), sent to the running inbound SMTP listener, and
// where a stored inbound mail landed.
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import { sendToListener } from '../mail-feedback/report-messages.ts';

export const REPLY_DOMAIN = 'reply.acme.test';

export interface RawMailOptions {
  from: string;
  to: string;
  subject: string;
  /** null: no Message-ID header at all */
  messageId?: string | null;
  inReplyTo?: string;
  references?: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

export const newMessageId = (domain = 'mail.example.org') => `<${randomBytes(8).toString('hex')}@${domain}>`;

function part(contentType: string, body: string): string {
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}\r\n`;
}

function multipart(kind: string, parts: string[]): { head: string; body: string } {
  const boundary = `b-${randomBytes(6).toString('hex')}`;
  return { head: `multipart/${kind}; boundary="${boundary}"`, body: `${parts.map((p) => `--${boundary}\r\n${p}`).join('')}--${boundary}--\r\n` };
}

export function rawMail(o: RawMailOptions): string {
  const head = [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    ...(o.messageId === null ? [] : [`Message-ID: ${o.messageId ?? newMessageId()}`]),
    ...(o.inReplyTo !== undefined ? [`In-Reply-To: ${o.inReplyTo}`] : []),
    ...(o.references !== undefined ? [`References: ${o.references}`] : []),
    ...Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  const bodies: string[] = [];
  if (o.text !== undefined) bodies.push(part('text/plain', o.text));
  if (o.html !== undefined) bodies.push(part('text/html', o.html));
  let content = bodies.length === 1 ? { head: '', body: bodies[0]! } : multipart('alternative', bodies);
  if (o.attachments?.length) {
    const files = o.attachments.map(
      (a) => `Content-Type: ${a.contentType}; name="${a.filename}"\r\nContent-Disposition: attachment; filename="${a.filename}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${a.content.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n`,
    );
    const inner = content.head ? `Content-Type: ${content.head}\r\n\r\n${content.body}` : content.body;
    content = multipart('mixed', [inner, ...files]);
  }
  if (!content.head) return `${head.join('\r\n')}\r\n${content.body}`;
  return `${head.join('\r\n')}\r\nContent-Type: ${content.head}\r\n\r\n${content.body}`;
}

/** Sends the mail to the listener of `server` (envelope: the To address), answering the server's reply. */
export async function deliver(server: TestServer, options: RawMailOptions & { envelopeTo?: string[] }): Promise<string> {
  const raw = rawMail(options);
  const port = server.app.services.inboundSmtp.address!.port;
  return (await sendToListener(port, options.envelopeTo ?? [options.to.replace(/^.*<([^<>]+)>$/, '$1')], raw)).response;
}

export interface Landing {
  conversationSimplyId: string;
  /** the conversation the mail lives in now: itself, or the one it was merged into */
  liveSimplyId: string;
  visitorEmailKey: string | null;
  messageSimplyId: string;
  content: string;
  fullHtml: string | null;
  fullText: string | null;
}

/** Where the stored inbound mail with that Message-ID is (null: not stored). */
export async function landingOf(server: TestServer, teamId: bigint, headerMessageId: string): Promise<Landing | null> {
  const { rows } = await server.app.services.pool.query(
    `SELECT c."simplyId" AS "conversationSimplyId", coalesce(live."simplyId", c."simplyId") AS "liveSimplyId", c."visitorEmailKey", m."simplyId" AS "messageSimplyId",
            m.content, e."fullHtml", e."fullText"
       FROM "ConversationEmail" e
       JOIN "ConversationMessage" m ON m."teamId" = e."teamId" AND m.id = e."messageId"
       JOIN "Conversation" c ON c."teamId" = e."teamId" AND c.id = e."conversationId"
       LEFT JOIN "Conversation" live ON live."teamId" = c."teamId" AND live.id = c."mergedIntoId"
      WHERE e."teamId" = $1 AND e."headerMessageId" = $2`,
    [teamId, headerMessageId],
  );
  return (rows[0] as Landing | undefined) ?? null;
}

export async function replyTokenOf(server: TestServer, teamId: bigint, conversationSimplyId: string): Promise<string> {
  const { rows } = await server.app.services.pool.query(`SELECT "replyToken" FROM "Conversation" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, conversationSimplyId]);
  return rows[0].replyToken as string;
}

export const replyAddress = (token: string) => `reply+${token}@${REPLY_DOMAIN}`;
