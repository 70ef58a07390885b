// Errors of the action-tags area (docs/api/action-tags.md "Errors").
import { ApiError, ValidationError } from '../../app/errors.ts';

/** A feature of a capacity band (500 and higher) the team's plan is below. */
export class ActionTagBandRequiredError extends ApiError {
  constructor(what: string, band: number) {
    super(403, 'ACTION_TAG_BAND_REQUIRED', `${what} needs the 500-action band or higher; the team's plan is the ${band} band`);
  }
}

/** A powered feature (record links, wizards, bulk generation, fresh scan, domains) on a plan without it. */
export class ActionTagPaidPlanRequiredError extends ApiError {
  constructor(what: string) {
    super(403, 'ACTION_TAG_PAID_PLAN_REQUIRED', `${what} needs an eligible paid plan`);
  }
}

/** Powered fields sent by a team whose plan does not have them: refused, never ignored. */
export class ActionTagPoweredFieldsError extends ValidationError {
  constructor(fields: string[]) {
    super(
      'These fields need an eligible paid plan',
      fields.map((field) => ({ field, message: 'needs an eligible paid plan (powered actions)' })),
    );
  }
}

/** Creating a tag beyond the plan's managed capacity. */
export class ActionTagCapacityError extends ApiError {
  constructor(capacity: number) {
    super(409, 'ACTION_TAG_CAPACITY_REACHED', `The team's plan manages at most ${capacity} action tags that are not archived`);
  }
}

/** A status change the transition table does not allow. */
export class ActionTagTransitionError extends ApiError {
  constructor(from: string, to: string) {
    super(409, 'ACTION_TAG_INVALID_TRANSITION', `An action tag cannot go from ${from} to ${to}`, { details: [{ field: 'status', message: `cannot change from ${from} to ${to}` }] });
  }
}
