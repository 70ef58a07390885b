// The API's answers for an AI feature that cannot work: no model configured (403
// AI_FEATURE_UNAVAILABLE, naming what the feature needed it for) or a model step that failed (424
// AI_MODEL_ERROR: the request depended on the model and the model failed), with the AI layer's
// fixed sentence and never the provider's text; `details[0].message` is the failure's kind.
// Features without a documented code of their own answer with these.
import { ApiError } from '../errors.ts';
import type { AiError } from './ai-errors.ts';

export class AiFeatureUnavailableError extends ApiError {
  /** `purpose`: what needs the model, e.g. "Generating field descriptions" */
  constructor(purpose: string) {
    super(403, 'AI_FEATURE_UNAVAILABLE', `${purpose} needs an AI model, and none is configured for this platform`);
  }
}

export class AiModelFailedError extends ApiError {
  constructor(error: AiError) {
    super(424, 'AI_MODEL_ERROR', error.userVisibleSummary, { details: [{ message: error.kind }] });
  }
}
