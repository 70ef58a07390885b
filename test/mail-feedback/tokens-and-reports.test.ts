// The pieces under the feedback flow, without a server: the tokens of return paths and unsubscribe
// links, the reading of real report messages (mailparser), and the precedence of states.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mailId } from '../../src/modules/mail/mail.ids.ts';
import { MailTokens, readReturnPath, returnPathFor } from '../../src/modules/mail/mail-tokens.ts';
import { effectsOf, MAX_FEEDBACK_DETAIL, supersedes } from '../../src/modules/mail-feedback/feedback-effects.ts';
import { readReport } from '../../src/modules/mail-feedback/feedback-reports.ts';
import { complaintReport, deliveryStatusNotification } from './report-messages.ts';

const tokens = new MailTokens(randomBytes(32));
const ref = { teamId: 9_007_199_254_740_993n, simplyId: mailId.create() };

describe('mail tokens', () => {
  it('name the team and the mail, and read back only for their purpose', () => {
    const returnPath = tokens.mint('return-path', ref);
    const unsubscribe = tokens.mint('unsubscribe', ref);
    expect(returnPath).toMatch(/^[0-9a-f]{52}$/);
    expect(unsubscribe).not.toBe(returnPath);
    expect(tokens.read('return-path', returnPath)).toEqual(ref);
    expect(tokens.read('unsubscribe', unsubscribe)).toEqual(ref);
    expect(tokens.read('unsubscribe', returnPath)).toBeNull();
    expect(tokens.read('return-path', unsubscribe)).toBeNull();
    // deterministic: a resend of the mail has the same return path
    expect(tokens.mint('return-path', ref)).toBe(returnPath);
  });

  it('refuse any changed character, another key, and anything not a token', () => {
    const token = tokens.mint('return-path', ref);
    for (let i = 0; i < token.length; i += 7) {
      const changed = `${token.slice(0, i)}${token[i] === 'f' ? 'e' : 'f'}${token.slice(i + 1)}`;
      expect(tokens.read('return-path', changed)).toBeNull();
    }
    expect(new MailTokens(randomBytes(32)).read('return-path', token)).toBeNull();
    for (const junk of ['', 'abc', `${token}0`, token.slice(1), 'z'.repeat(52)]) expect(tokens.read('return-path', junk)).toBeNull();
  });

  it('make return paths within a local part, in any letter case', () => {
    const address = returnPathFor(tokens, ref, 'bounces.example.org');
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(readReturnPath(tokens, address)).toEqual(ref);
    expect(readReturnPath(tokens, address.toUpperCase())).toEqual(ref);
    expect(readReturnPath(tokens, address.replace('bounces+', 'other+'))).toBeNull();
    expect(readReturnPath(tokens, 'bounces@bounces.example.org')).toBeNull();
  });
});

describe('reading reports', () => {
  const original = 'From: a@svc.example\r\nTo: ada@receiver.example\r\nSubject: hi\r\nMessage-ID: <m1@svc.example>\r\n\r\nHello\r\n';

  it('reads every recipient of a delivery status notification', async () => {
    const raw = deliveryStatusNotification({
      returnPath: 'bounces+x@b.example',
      recipients: [
        { action: 'failed', status: '5.1.1', finalRecipient: 'Ada@Receiver.example', diagnostic: '550 5.1.1 user unknown, please check the address and try again' },
        { action: 'delayed', status: '4.4.1', finalRecipient: 'grace@receiver.example' },
      ],
      original,
    });
    expect(await readReport(Buffer.from(raw))).toEqual({
      kind: 'delivery-status',
      recipients: [
        { action: 'failed', status: '5.1.1', address: 'ada@receiver.example', diagnostic: 'smtp; 550 5.1.1 user unknown, please check the address and try again' },
        { action: 'delayed', status: '4.4.1', address: 'grace@receiver.example', diagnostic: null },
      ],
    });
  });

  it('reads a complaint report (ARF) and tells complaints from other feedback', async () => {
    const abuse = complaintReport({ returnPath: 'bounces+x@b.example', originalRcptTo: 'Ada@receiver.example', original });
    expect(await readReport(Buffer.from(abuse))).toEqual({ kind: 'complaint', feedbackType: 'abuse', address: 'ada@receiver.example' });
    const authFailure = complaintReport({ returnPath: 'bounces+x@b.example', feedbackType: 'auth-failure', original });
    expect((await readReport(Buffer.from(authFailure))).kind).toBe('unrecognised');
  });

  it('finds no report in plain mail or garbage', async () => {
    for (const raw of [original, '', '\u0000\u0001garbage', 'Content-Type: multipart/report; boundary=x\r\n\r\n--x\r\n']) {
      expect((await readReport(Buffer.from(raw))).kind).toBe('unrecognised');
    }
  });
});

describe('effects and precedence', () => {
  it('COMPLAINED over BOUNCED over DELIVERED, never back', () => {
    expect(supersedes('DELIVERED', null)).toBe(true);
    expect(supersedes('BOUNCED', 'DELIVERED')).toBe(true);
    expect(supersedes('COMPLAINED', 'BOUNCED')).toBe(true);
    expect(supersedes('DELIVERED', 'BOUNCED')).toBe(false);
    expect(supersedes('BOUNCED', 'COMPLAINED')).toBe(false);
    expect(supersedes('BOUNCED', 'BOUNCED')).toBe(false);
  });

  it('keeps the detail one short line', () => {
    const [effect] = effectsOf({
      kind: 'delivery-status',
      recipients: [{ action: 'failed', status: '5.0.0', address: null, diagnostic: `smtp; 550\r\n${'x'.repeat(800)}` }],
    });
    expect(effect!.detail.length).toBe(MAX_FEEDBACK_DETAIL);
    expect(effect!.detail).toMatch(/^failed 5\.0\.0 smtp; 550 x+…$/);
    expect(effect!.suppress).toEqual({ address: null, reason: 'HARD_BOUNCE' });
  });
});
