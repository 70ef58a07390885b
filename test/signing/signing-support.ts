// Shared setup of the signing suites: a collection to sign on, a record, a create body, and the
// signer links read back from the mails the SMTP sink received.
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';

export const until = untilWith({ timeoutMs: 15_000, everyMs: 100 });

export function contractCollection(server: TestServer, team: TeamFixture, name = 'Contracts'): Promise<CollectionFixture> {
  return createCollection(server, team, {
    name,
    formula: '{title}',
    fields: {
      title: 'PLAIN_TEXT',
      amount: 'NUMBER',
      secret: 'PLAIN_TEXT',
      signature: 'PLAIN_TEXT',
      signed_on: 'DATE',
      agreed: 'BOOLEAN',
      signer_name: 'PLAIN_TEXT',
      signer_email: 'EMAIL_ADDRESS',
      status: 'PLAIN_TEXT',
      document: 'SINGLE_FILE',
      photo: 'SINGLE_IMAGE',
    },
  });
}

export async function contractRecord(server: TestServer, token: string, c: CollectionFixture, fields: Record<string, unknown> = {}): Promise<string> {
  const record = await createRecord(server, token, c.id, {
    [c.fields.title!]: 'Lease 12B',
    [c.fields.amount!]: 1200,
    [c.fields.signer_name!]: 'Grace Hopper',
    [c.fields.signer_email!]: `grace-${Math.random().toString(16).slice(2, 8)}@signers.test`,
    ...fields,
  });
  return record.id;
}

/** A valid create body: two signers in order (Ada, then Bob), review title + amount. */
export function createBody(c: CollectionFixture, recordId: string, more: Record<string, unknown> = {}, tag = Math.random().toString(16).slice(2, 8)) {
  return {
    sourceDataCollectionSimplyId: c.id,
    sourceDataRecordSimplyId: recordId,
    reviewFieldSimplyIds: [c.fields.title, c.fields.amount],
    signatureFieldSimplyIds: [c.fields.signature, c.fields.signed_on, c.fields.agreed],
    signers: [
      { roleKey: 'tenant', name: 'Ada Lovelace', email: `ada-${tag}@signers.test`, signingOrder: 1 },
      { roleKey: 'landlord', name: 'Bob Builder', email: `bob-${tag}@signers.test`, signingOrder: 2 },
    ],
    consentText: { en: 'I agree to sign electronically.' },
    consentVersion: 'v1',
    expirationDays: 7,
    ...more,
  };
}

/** The signing tokens mailed to `address`, oldest first (quoted-printable soft breaks undone). */
export function tokensFor(sink: SmtpSink, address: string): string[] {
  return sink.received
    .filter((m) => m.rcptTo.includes(address))
    .flatMap((m) => [...m.raw.replace(/=\r\n/g, '').matchAll(/svc_sgn_[A-Za-z0-9_-]{20,}/g)].map((x) => x[0]))
    .filter((t, i, all) => all.indexOf(t) === i);
}

/** Waits for the `n`-th link mailed to `address` and returns it. */
export async function mailedToken(sink: SmtpSink, address: string, n = 1): Promise<string> {
  return until(`link ${n} mailed to ${address}`, async () => tokensFor(sink, address)[n - 1] ?? null);
}

export const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
