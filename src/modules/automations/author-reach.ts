// An automation acts with full data access of its team (automation-principal.ts). So that the
// feature permission TEAM_ADMIN_DATA_WIZARDS is not a way around data permissions, whoever writes
// an automation must reach what it will touch: READ on its collection (its records feed filters,
// merge tags, mail, notifications and payments), EDIT on each collection an action writes and on
// each field it writes, and RUN (or EDIT) on the collection a wizard step runs on. Team admins,
// and roles with full data access for what they write, pass these checks by the same rules.
import { fieldAccess, hasDataAccess, type Principal } from '../../app/auth/principal.ts';
import { PermissionDeniedError } from '../../app/errors.ts';
import type { ValidatedAction, ValidationEnv } from './automations.input.ts';

type ActionLike = Pick<ValidatedAction, 'actionType' | 'actionConfig'> & { onFailureActions?: ValidatedAction['onFailureActions'] };

export function requireDataReach(env: ValidationEnv, actions: readonly ActionLike[]): void {
  const p = env.principal;
  const collection = env.collection?.simplyId ?? null;
  if (collection && !hasDataAccess(p, collection, 'READ')) {
    throw new PermissionDeniedError(`An automation acts on the records of collection ${collection}: its author needs read access to it`);
  }
  for (const action of actions.flatMap((a) => [a, ...(a.onFailureActions ?? [])])) {
    const config = action.actionConfig as Record<string, unknown>;
    switch (action.actionType) {
      case 'UPDATE_FIELDS':
        if (collection) requireWrite(p, collection, Object.keys((config.fields ?? {}) as object));
        break;
      case 'CREATE_RECORD':
        requireWrite(p, String(config.dataCollectionSimplyId), Object.keys((config.fields ?? {}) as object));
        break;
      case 'RUN_WIZARD_STEP':
        if (collection && !hasDataAccess(p, collection, 'RUN') && !hasDataAccess(p, collection, 'EDIT')) {
          throw new PermissionDeniedError(`RUN_WIZARD_STEP runs wizard ${String(config.dataWizardSimplyId)} on records of collection ${collection}: its author needs RUN (or EDIT) on it`);
        }
        break;
    }
  }
}

function requireWrite(p: Principal, collection: string, fields: readonly string[]): void {
  if (!hasDataAccess(p, collection, 'EDIT')) {
    throw new PermissionDeniedError(`The automation writes records of collection ${collection}: its author needs edit access to it`);
  }
  const denied = fields.filter((f) => fieldAccess(p, collection, f) !== 'EDIT');
  if (denied.length > 0) {
    throw new PermissionDeniedError(`The automation writes fields its author cannot edit: ${denied.join(', ')}`);
  }
}
