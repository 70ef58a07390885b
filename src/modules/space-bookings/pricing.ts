// Quotes in integer minor units of the channel's currency: one line item per space, worked out with
// BigInt so no amount ever passes through floating point (a part of a minor unit rounds up).
import type { Pricing } from './space-bookings.input.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';

export interface LineItem {
  label: string;
  amountMinorUnits: number;
}

export interface PriceArgs {
  pricing: Pricing;
  slotIncrementMinutes: number;
  durationMinutes: number;
  spaces: { spaceRecordSimplyId: string; displayName: string }[];
  packageRecordSimplyId?: string;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

export function priceBooking(args: PriceArgs): { amountMinorUnits: number; lineItems: LineItem[] } {
  const { pricing } = args;
  const rate = BigInt(pricing.amountMinorUnits);
  const minutes = BigInt(args.durationMinutes);
  let each: { amount: bigint; label: (space: string) => string };
  switch (pricing.mode) {
    case 'FREE':
      each = { amount: 0n, label: (s) => `${s}` };
      break;
    case 'PER_HOUR':
      each = { amount: ceilDiv(rate * minutes, 60n), label: (s) => `${s}: ${args.durationMinutes} minutes at ${pricing.amountMinorUnits} per hour` };
      break;
    case 'PER_SLOT': {
      const slots = ceilDiv(minutes, BigInt(args.slotIncrementMinutes));
      each = { amount: rate * slots, label: (s) => `${s}: ${slots} slot${slots === 1n ? '' : 's'} at ${pricing.amountMinorUnits}` };
      break;
    }
    case 'FLAT':
      each = { amount: rate, label: (s) => `${s}: flat rate` };
      break;
    case 'PACKAGE': {
      const chosen = pricing.packages.find((p) => p.packageRecordSimplyId === args.packageRecordSimplyId);
      if (!chosen) {
        const known = pricing.packages.map((p) => p.packageRecordSimplyId).join(', ');
        throw new BookingRequestInvalidError('This channel prices by package: name one of its packages', [{ field: 'packageRecordSimplyId', message: `must be one of ${known}` }]);
      }
      each = { amount: BigInt(chosen.amountMinorUnits), label: (s) => `${s}: ${chosen.label}` };
      break;
    }
  }
  const lineItems = args.spaces.map((s) => ({ label: each.label(s.displayName), amountMinorUnits: Number(each.amount) }));
  const total = args.spaces.reduce((sum) => sum + each.amount, 0n);
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new BookingRequestInvalidError('The quote exceeds the largest amount the platform handles', [{ field: 'endsAt', message: 'too long a booking for this price' }]);
  return { amountMinorUnits: Number(total), lineItems };
}
