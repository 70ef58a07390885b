// The team assistant's own errors (docs/api/team-assistant.md "Errors"). Their messages are fixed
// sentences: nothing of a prompt, a provider's answer or an internal id reaches a client.
import { ApiError } from '../../app/errors.ts';

export class AssistantUnavailableError extends ApiError {
  constructor() {
    super(403, 'TEAM_AGENT_FEATURE_UNAVAILABLE', 'The team assistant is not available: no AI model is configured for this platform');
  }
}

export class AssistantPermissionDeniedError extends ApiError {
  constructor(level: 'VIEW' | 'EDIT' = 'VIEW') {
    super(403, 'TEAM_AGENT_PERMISSION_DENIED', level === 'EDIT'
      ? 'Drafting changes needs edit-level TEAM_AGENT_USE or TEAM_ADMIN_AGENT_USE'
      : 'Using the team assistant needs TEAM_AGENT_USE or TEAM_ADMIN_AGENT_USE');
  }
}

export class AssistantSettingsDeniedError extends ApiError {
  constructor() {
    super(403, 'TEAM_AGENT_SETTINGS_DENIED', "The assistant's settings are for Team Admins and edit-level TEAM_ADMIN_AGENT_USE");
  }
}

export class AssistantRunNotFoundError extends ApiError {
  constructor() {
    super(404, 'TEAM_AGENT_RUN_NOT_FOUND', 'No run of yours has this key or id (yet): keep polling for a bounded time, then retry the send with the same key');
  }
}

export class AssistantMessageNotFoundError extends ApiError {
  constructor() {
    super(404, 'TEAM_AGENT_MESSAGE_NOT_FOUND', 'No assistant message of yours has this id');
  }
}

/** The same idempotency key again after its run failed or was cancelled: the persisted safe outcome. */
export class AssistantRunEndedError extends ApiError {
  constructor(status: 'FAILED' | 'CANCELLED', runSimplyId: string, userVisibleSummary: string) {
    super(409, status === 'FAILED' ? 'TEAM_AGENT_RUN_FAILED' : 'TEAM_AGENT_RUN_CANCELLED', userVisibleSummary, {
      details: [{ field: 'idempotencyKey', message: `run ${runSimplyId} ended ${status}; send again with a new key` }],
    });
  }
}

export class AssistantProposalNotFoundError extends ApiError {
  constructor() {
    super(404, 'TEAM_AGENT_PROPOSAL_NOT_FOUND', 'No proposal of yours has this id');
  }
}

/** Approving or rejecting a proposal that was already decided another way, or expired. */
export class AssistantProposalClosedError extends ApiError {
  constructor(status: string) {
    super(409, status === 'EXPIRED' ? 'TEAM_AGENT_PROPOSAL_EXPIRED' : 'TEAM_AGENT_PROPOSAL_NOT_PENDING', status === 'EXPIRED'
      ? 'The proposal expired before it was approved; ask the assistant again'
      : `The proposal is ${status} and can no longer be approved or rejected`);
  }
}

/** The records changed after the proposal was drafted: nothing was written. */
export class AssistantProposalStaleError extends ApiError {
  constructor() {
    super(409, 'TEAM_AGENT_PROPOSAL_STALE', 'The records changed after the proposal was drafted, so nothing was written; ask the assistant again for a fresh proposal');
  }
}

/** A handoff asked for while the team offers none (support scope off, or nobody to respond). */
export class AssistantSupportUnavailableError extends ApiError {
  constructor() {
    super(409, 'TEAM_AGENT_SUPPORT_UNAVAILABLE', 'The team does not offer support handoffs from the assistant right now (see GET /v1/team-agent/support/availability)');
  }
}
