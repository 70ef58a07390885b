// The one place the tag writes announce themselves (created, updated, status changed, deleted),
// inside their transaction, so a change and its announcement commit together. The lifecycle
// webhooks (docs/api/action-tags.md "Lifecycle webhooks") subscribe here.
import type { RequestContext } from '../../app/context.ts';
import type { Tx } from '../../app/transaction.ts';
import type { ActionTag } from '../../generated/prisma/client.ts';

export type ActionTagLifecycleType = 'CREATED' | 'UPDATED' | 'STATUS_CHANGED' | 'DELETED';

export interface ActionTagLifecycleChange {
  type: ActionTagLifecycleType;
  tag: ActionTag;
  /** UPDATED and STATUS_CHANGED: the tag before the change */
  previous?: ActionTag;
}

type Listener = (ctx: RequestContext, tx: Tx, change: ActionTagLifecycleChange) => Promise<void>;
const listeners: Listener[] = [];

/** Registers what runs inside each tag write's transaction (the lifecycle webhooks' emitter). */
export function onActionTagLifecycle(listener: Listener): void {
  listeners.push(listener);
}

export async function emitActionTagLifecycle(ctx: RequestContext, tx: Tx, change: ActionTagLifecycleChange): Promise<void> {
  for (const listener of listeners) await listener(ctx, tx, change);
}
