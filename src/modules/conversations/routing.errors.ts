// The errors of routing and staffing beyond the shared ones (docs/api/conversations.md "Routing and staffing").
import { ApiError } from '../../app/errors.ts';

/** A team already holds as many rules (or SLA policies) as the platform allows. */
export class RoutingLimitError extends ApiError {
  constructor(what: string, limit: number) {
    super(409, 'LIMIT_EXCEEDED', `A team has at most ${limit} ${what}: delete one first`, { details: [{ message: `at most ${limit} ${what}` }] });
  }
}
