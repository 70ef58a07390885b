// Identifiers of the space-bookings area.
import { idKind } from '../../app/ids.ts';

/** a source connection (`ssc-XXXX-XXXX-XXXX`): the team's collections mapped into the booking model */
export const sourceConnectionId = idKind('ssc', 'source connection');
/** a booking channel (`bch-XXXX-XXXX-XXXX`): bookable spaces with their availability policy and pricing */
export const bookingChannelId = idKind('bch', 'booking channel');
/** a booking link (`blk-XXXX-XXXX-XXXX`): an entry point of a channel with its audience */
export const bookingLinkId = idKind('blk', 'booking link');
