// The status transition table of action tags (docs/api/action-tags.md "Statuses"). Only ACTIVE
// resolves. ARCHIVED_BY_DOWNGRADE is set by the platform when a plan change leaves a tag beyond the
// plan (capacity, or a powered type the plan no longer has); a team moves it back out itself.
import type { ActionTagStatus } from './action-tags.input.ts';

const MOVES: Record<ActionTagStatus, readonly ActionTagStatus[]> = {
  DRAFT: ['ACTIVE', 'INACTIVE', 'ARCHIVED'],
  ACTIVE: ['INACTIVE', 'ARCHIVED'],
  INACTIVE: ['ACTIVE', 'ARCHIVED'],
  ARCHIVED: ['INACTIVE', 'DRAFT'],
  ARCHIVED_BY_DOWNGRADE: ['INACTIVE', 'DRAFT', 'ARCHIVED'],
};

/** The statuses a new tag may start in. */
export const INITIAL_STATUSES: readonly ActionTagStatus[] = ['DRAFT', 'ACTIVE', 'INACTIVE'];

/** Statuses that do not count against the plan's managed capacity. */
export const ARCHIVED_STATUSES: readonly ActionTagStatus[] = ['ARCHIVED', 'ARCHIVED_BY_DOWNGRADE'];

export function canMove(from: ActionTagStatus, to: ActionTagStatus): boolean {
  return from === to || MOVES[from].includes(to);
}

export const TRANSITIONS = MOVES;
