// Live updates of a source connection: one webhook subscription per record event type (created,
// updated, deleted, bulk-synced) filtered to the mapped collections, all signed with one secret
// shown once, delivered and logged by the webhooks area like any other subscription. The target
// must be the spaces webhook receiver of this connection (Document 3 §4.4 rule 4):
// https://<SVC_SPACES_WEBHOOK_HOST>/svc-spaces/webhooks/<sourceConnectionSimplyId>.
import type { RequestContext } from '../../app/context.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { ConflictError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import { randomSecret } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { secretBoxFor } from '../../app/secret-box.ts';
import { RECORD_EVENT_TYPES } from '../../kernel/index.ts';
import { secretContext, WEBHOOK_LIMITS, webhookId } from '../webhooks/index.ts';
import { parseBody, webhookSubscriptionBody } from './space-bookings.input.ts';
import { requireSpacesManage } from './space-bookings.access.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';
import { findConnection, mappingOf } from './space-bookings.store.ts';

export const BOOKING_EVENT_TYPES = [RECORD_EVENT_TYPES.CREATED, RECORD_EVENT_TYPES.UPDATED, RECORD_EVENT_TYPES.DELETED, 'DATA_RECORDS_BULK_SYNCED'] as const;

export function receiverUrl(host: string, sourceConnectionSimplyId: string): string {
  return `https://${host}/svc-spaces/webhooks/${sourceConnectionSimplyId}`;
}

export async function subscribeToBookingEvents(ctx: RequestContext, sourceConnectionSimplyId: string, input: unknown) {
  requireSpacesManage(ctx);
  const team = requireTeam(ctx);
  const connection = await findConnection(ctx.services, team.id, sourceConnectionSimplyId);
  const mapping = mappingOf(connection);
  const { targetUrl } = parseBody(webhookSubscriptionBody, input);
  const expected = receiverUrl(ctx.services.config.SVC_SPACES_WEBHOOK_HOST, connection.simplyId);
  if (targetUrl !== expected) throw new BookingRequestInvalidError(`targetUrl must be this connection's spaces webhook receiver, ${expected}`, [{ field: 'targetUrl', message: `must be ${expected}` }]);
  const collections = [...new Set([mapping.spaces.dataCollectionSimplyId, mapping.bookings.dataCollectionSimplyId, ...(mapping.people ? [mapping.people.dataCollectionSimplyId] : [])])];
  const secret = `whsec_${randomSecret(32)}`;
  const box = secretBoxFor(ctx.services.config.secretsKeyFile);
  // the team's webhook creates take turns (the webhooks area's lock): the four count against its per-team limit
  const rows = await runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('webhookSubscriptions', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const held = await tx.webhookSubscription.count({ where: { teamId: team.id, eventType: { in: [...BOOKING_EVENT_TYPES] } } });
    if (held + BOOKING_EVENT_TYPES.length > WEBHOOK_LIMITS.perTeam) {
      throw new ConflictError(`A team may have at most ${WEBHOOK_LIMITS.perTeam} webhook subscriptions and this registration adds ${BOOKING_EVENT_TYPES.length}; delete some first`);
    }
    const created = [];
    for (const eventType of BOOKING_EVENT_TYPES) {
      const simplyId = webhookId.create();
      created.push(await tx.webhookSubscription.create({
        data: {
          simplyId,
          teamId: team.id,
          eventType,
          targetUrl,
          filterCriteria: { dataCollectionIds: collections },
          secretCiphertext: box.seal(secret, secretContext(team.id, simplyId)) as Uint8Array<ArrayBuffer>,
          createdByKind: ctx.principal.kind,
          createdById: ctx.principal.credentialId,
        },
      }));
    }
    return created;
  });
  return {
    secret,
    subscriptions: rows.map((r) => ({ webhookSimplyId: r.simplyId, eventType: r.eventType, targetUrl: r.targetUrl, dataCollectionSimplyIds: collections, createdAt: r.createdAt.toISOString() })),
  };
}
