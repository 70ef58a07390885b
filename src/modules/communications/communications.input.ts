// What a read of the communication history accepts (docs/api/communications.md): limit, the opaque
// keyset cursor and the two filters. Both faces validate with these: the REST table the query's
// shape, the service the values (one message for REST and GraphQL).
import { z } from 'zod';
import { DELIVERY_CHANNELS, DELIVERY_STATES } from './record-delivery.ts';

export { DELIVERY_CHANNELS, DELIVERY_STATES };

export const HISTORY_LIMITS = { defaultLimit: 25, maxLimit: 100, cursor: 200 } as const;

/** The arguments of every history read, as both faces hand them to the service. */
export const historyArgs = z.object({
  limit: z
    .number({ message: `must be an integer from 1 to ${HISTORY_LIMITS.maxLimit}` })
    .int(`must be an integer from 1 to ${HISTORY_LIMITS.maxLimit}`)
    .min(1, `must be an integer from 1 to ${HISTORY_LIMITS.maxLimit}`)
    .max(HISTORY_LIMITS.maxLimit, `must be an integer from 1 to ${HISTORY_LIMITS.maxLimit}`)
    .nullish(),
  cursor: z.string().min(1, 'must not be empty').max(HISTORY_LIMITS.cursor, 'is not a cursor of this list').nullish(),
  channelId: z.enum(DELIVERY_CHANNELS, { message: `must be one of ${DELIVERY_CHANNELS.join(', ')}` }).nullish(),
  currentStateId: z.enum(DELIVERY_STATES, { message: `must be one of ${DELIVERY_STATES.join(', ')}` }).nullish(),
});

export type HistoryArgs = z.output<typeof historyArgs>;

/** An `offset` would silently repeat or skip rows as new deliveries arrive: refused, naming the cursor. */
export const NO_OFFSET = 'this list pages by cursor: pass the previous answer’s meta.nextCursor as cursor';
