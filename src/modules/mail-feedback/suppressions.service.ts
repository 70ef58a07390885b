// The team's suppression list (docs/api/mail-feedback.md "Suppression list"): the addresses the
// composer skips. Feedback adds to it by itself (feedback.sql.ts `suppress`); people read it, add
// addresses (reason MANUAL) and take addresses off so they can be mailed again. The schema's tiers
// check OUTGOING_MESSAGES_SEND (view to read, edit to write); every statement is scoped to the
// caller's team, so another team's address answers as a missing one.
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../app/errors.ts';
import { paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { parseEmail } from '../../kernel/index.ts';
import { createSuppressionInput, listSuppressionsInput } from './suppressions.input.ts';
import {
  countSuppressions,
  deleteSuppression,
  findSuppression,
  findSuppressionPage,
  insertManualSuppression,
  type SuppressionRow,
} from './suppressions.sql.ts';

export type Suppression = SuppressionRow;

const LABEL = 'Suppressed address';
/** rounds of insert-or-read an add makes while concurrent deletes keep taking the row away */
const ADD_ATTEMPTS = 4;
/** longer than any address the list can hold; refused before it reaches the database */
const MAX_ADDRESS_PARAM = 1000;

export interface ListSuppressionsArgs extends PageInput {
  search?: string | null;
  reason?: string | null;
}

export async function listSuppressions(ctx: RequestContext, args: ListSuppressionsArgs): Promise<Page<Suppression>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const { search, reason } = parseInput(listSuppressionsInput, { search: args.search, reason: args.reason }, 'Invalid suppression list filter');
  const filter = { teamId: team.id, search: search || null, reason: reason ?? null };
  const { pool } = ctx.services;
  const nodes = await findSuppressionPage(pool, filter, paging.limit, paging.offset);
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => countSuppressions(pool, filter)) };
}

/**
 * Puts the address on the list with reason MANUAL. An address already there stays as it is (its
 * reason and message too) and is answered with `created: false`, so adding is safe to repeat.
 */
export async function addSuppression(ctx: RequestContext, raw: unknown): Promise<{ created: boolean; suppression: Suppression }> {
  const team = requireTeam(ctx);
  const { address } = parseInput(createSuppressionInput, raw, 'Invalid suppression');
  const { pool } = ctx.services;
  // the existing row can vanish between the insert that yielded to it and the read (a concurrent
  // delete): then the address is free again and the insert is tried anew
  for (let attempt = 1; attempt <= ADD_ATTEMPTS; attempt++) {
    const inserted = await insertManualSuppression(pool, team.id, address);
    if (inserted) return { created: true, suppression: inserted };
    const existing = await findSuppression(pool, team.id, [address]);
    if (existing) return { created: false, suppression: existing };
  }
  throw new ConflictError('The address was being added and removed by other requests at the same time; retry');
}

/**
 * The stored forms an address given to DELETE may name: as given (lower-cased), and as the add
 * route would store it (the domain of an `xn--` form in Unicode). Rows written from feedback keep
 * the address the receiving server reported, which need not be a valid address, so DELETE takes
 * any text rather than refusing what it cannot parse.
 */
function addressForms(raw: string): string[] {
  const given = raw.trim();
  if (given === '' || given.length > MAX_ADDRESS_PARAM) {
    throw new ValidationError('Invalid address', [{ field: 'address', message: `must be an address of 1-${MAX_ADDRESS_PARAM} characters` }]);
  }
  const forms = new Set([given.toLowerCase()]);
  const parsed = parseEmail(given);
  if (parsed.ok) forms.add(parsed.value.toLowerCase());
  return [...forms];
}

/** Takes the address off the list: the composer sends to it again. Not on the list (or another team's): 404. */
export async function removeSuppression(ctx: RequestContext, address: string): Promise<boolean> {
  const team = requireTeam(ctx);
  const removed = await deleteSuppression(ctx.services.pool, team.id, addressForms(address));
  if (!removed) throw new NotFoundError(LABEL, address.trim().toLowerCase());
  return true;
}
