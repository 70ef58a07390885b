// Errors of action tags' resolver domains (docs/api/action-tags.md "Custom domains").
import { ApiError } from '../../app/errors.ts';

/** The team already has as many domains as its plan allows. */
export class ActionTagDomainLimitError extends ApiError {
  constructor(allowance: number) {
    super(409, 'ACTION_TAG_DOMAIN_LIMIT_REACHED', `The team's plan allows ${allowance} action-tag domain${allowance === 1 ? '' : 's'}; remove one first`);
  }
}

/** The same domain twice in one team. */
export class ActionTagDomainExistsError extends ApiError {
  constructor(domain: string) {
    super(409, 'CONFLICT', `The team already has the action-tag domain ${domain}`, { details: [{ field: 'domain', message: 'already added' }] });
  }
}

/** The proof is right but another team holds the name VERIFIED: a host serves one team's tags. */
export class ActionTagDomainTakenError extends ApiError {
  constructor(domain: string) {
    super(409, 'ACTION_TAG_DOMAIN_TAKEN', `${domain} already serves another team's action tags`);
  }
}
