// POST /v1/constituent-auth/initiate: a one-time code or a magic link mailed to a constituent.
//
// The answer must not tell whether the address belongs to anyone (nor whether the team exists).
// So a contact that matches nobody gets a decoy verification that goes through the same steps:
// the same lookups (the contact probe runs for an unknown team too), the same secrets and hashes,
// the same INSERT of a verification row, and the same mail statements (message, queue job, history
// row) inside a savepoint that is then rolled back, so nothing is sent and nothing but the decoy row
// stays. A constant floor (INITIATE_MIN_DURATION_MS) covers what still differs. The decoy row can
// never be verified: it names no record.
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { RequestContext } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { inTransaction } from '../../app/transaction.ts';
import { recordDelivery } from '../communications/index.ts';
import { parseMailbox } from '../mail/index.ts';
import { matchContact, type MatchedConstituent } from './contact-match.ts';
import { constituentVerificationId } from './constituent-auth.ids.ts';
import { initiateInput, type InitiateInput } from './constituent-auth.input.ts';
import { CODE_TTL_MS, INITIATE_MIN_DURATION_MS, INITIATE_PER_IP, LINK_TTL_MS } from './limits.ts';
import { takeFromWindow } from './rate-limit-counters.ts';

export interface IssuedVerification {
  verificationSimplyId: string;
  expiresAt: Date;
}

export const VERIFY_PATH = '/v1/constituent-auth/verify';

export async function initiate(ctx: RequestContext, raw: unknown): Promise<IssuedVerification> {
  const input = parseInput(initiateInput, raw, 'Invalid sign-in request');
  const { pool } = ctx.services;
  await takeFromWindow(pool, { bucket: `constituent-auth:initiate:ip:${ctx.clientIp}`, ...INITIATE_PER_IP });
  const started = performance.now();
  try {
    return await issue(ctx, input);
  } finally {
    const left = INITIATE_MIN_DURATION_MS - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
}

async function issue(ctx: RequestContext, input: InitiateInput): Promise<IssuedVerification> {
  const { pool, schemas, constituentAuth } = ctx.services;
  const { secrets } = constituentAuth;
  const team = (await pool.query<{ id: string; name: string }>(`SELECT id, name FROM "Team" WHERE "simplyId" = $1`, [input.teamSimplyId])).rows[0];
  const teamId = team ? BigInt(team.id) : null;
  const schema = teamId === null ? null : await schemas.get(teamId);
  const match = await matchContact(pool, teamId, schema, input.contactValue);

  const simplyId = constituentVerificationId.create();
  const code = secrets.newCode();
  const linkToken = secrets.newLinkToken();
  const isLink = input.method === 'LINK';
  const expiresAt = new Date(Date.now() + (isLink ? LINK_TTL_MS : CODE_TTL_MS));
  const codeHash = secrets.codeHash(simplyId, code);
  const linkHash = secrets.linkHash(linkToken);

  await inTransaction(pool, async (db) => {
    await db.query(
      `INSERT INTO "ConstituentVerification" ("simplyId", "teamId", "dataRecordId", method, "codeHash", "linkTokenHash", "expiresAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [simplyId, String(teamId ?? 0n), match ? String(match.recordId) : null, input.method, isLink ? null : codeHash, isLink ? linkHash : null, expiresAt.toISOString()],
    );
    await db.query('SAVEPOINT constituent_mail');
    try {
      await sendSecret(ctx, db, {
        teamId: teamId ?? 0n,
        teamName: team?.name ?? '',
        match: match ?? { recordId: 0n, recordSimplyId: '', address: input.contactValue },
        verificationSimplyId: simplyId,
        secret: isLink ? { kind: 'LINK', token: linkToken, url: `${constituentAuth.linkBaseUrl}${VERIFY_PATH}?token=${encodeURIComponent(linkToken)}` } : { kind: 'CODE', code },
      });
    } catch (error) {
      if (match) throw error;
    }
    await db.query(match ? 'RELEASE SAVEPOINT constituent_mail' : 'ROLLBACK TO SAVEPOINT constituent_mail');
  });
  return { verificationSimplyId: simplyId, expiresAt };
}

type Secret = { kind: 'CODE'; code: string } | { kind: 'LINK'; token: string; url: string };

/** The mail and its history row, on the connection of the verification's transaction. */
async function sendSecret(
  ctx: RequestContext,
  db: pg.PoolClient,
  about: { teamId: bigint; teamName: string; match: MatchedConstituent; verificationSimplyId: string; secret: Secret },
): Promise<void> {
  const { secret, teamName } = about;
  const to = teamName ? ` to ${teamName}` : '';
  const mail =
    secret.kind === 'CODE'
      ? {
          subject: `Your sign-in code: ${secret.code}`,
          text: `Your code to sign in${to} is ${secret.code}.\n\nIt works once, within 15 minutes. If you did not ask for it, ignore this message.\n`,
        }
      : {
          subject: 'Your sign-in link',
          text: `Open this link to sign in${to}:\n\n${secret.url}\n\nIt works once, within 2 hours. If you did not ask for it, ignore this message.\n`,
        };
  const queued = await ctx.services.mail.enqueue(
    { teamId: about.teamId, to: [about.match.address], ...mail, source: 'CONSTITUENT_AUTHENTICATION', sourceId: about.verificationSimplyId, withheld: true },
    db,
  );
  const sender = parseMailbox(ctx.services.config.MAIL_FROM);
  await recordDelivery(db, {
    teamId: about.teamId,
    dataRecordId: about.match.recordId,
    sourceType: 'CONSTITUENT_AUTHENTICATION',
    sourceSimplyId: about.verificationSimplyId,
    channelId: 'EMAIL',
    mailMessageId: queued.id,
    destination: about.match.address,
    senderAddress: sender.ok ? sender.value.address : ctx.services.config.MAIL_FROM,
    subject: mail.subject,
    text: mail.text,
    secrets: secret.kind === 'CODE' ? [secret.code] : [secret.token, secret.url],
  });
}
