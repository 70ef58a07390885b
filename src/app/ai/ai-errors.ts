// The one error the AI layer throws. What a user may see is a fixed sentence per kind: a provider's
// message can echo the prompt, the conversation or account details, so it stays on `cause`, for
// the server's logs only. Even there, log `logFields()` rather than the cause itself: the SDK's
// errors carry the whole request body (system instructions, conversation, tool results) as
// enumerable fields, which a log serializer would write out in full.

export type AiErrorKind = 'unavailable' | 'timeout' | 'rate_limited' | 'provider_error' | 'bad_response' | 'cancelled' | 'budget_exceeded';

const SUMMARIES: Record<AiErrorKind, string> = {
  unavailable: 'The AI model could not be reached. Try again later.',
  timeout: 'The AI model took too long to answer. Try again later.',
  rate_limited: 'The AI model is receiving too many requests. Try again in a moment.',
  provider_error: 'The AI model refused the request.',
  bad_response: 'The AI model returned an answer that could not be used.',
  cancelled: 'The request to the AI model was cancelled.',
  budget_exceeded: 'This run has used all the AI tokens it may use.',
};

export class AiError extends Error {
  readonly kind: AiErrorKind;
  /** safe to show to anyone: never the provider's text */
  readonly userVisibleSummary: string;
  /** the provider's HTTP status, when it answered one */
  readonly status: number | undefined;
  /** requests made to the provider for this step */
  readonly attempts: number;

  constructor(kind: AiErrorKind, options: { cause?: unknown; status?: number; attempts?: number } = {}) {
    super(SUMMARIES[kind], { cause: options.cause });
    this.name = 'AiError';
    this.kind = kind;
    this.userVisibleSummary = SUMMARIES[kind];
    this.status = options.status;
    this.attempts = options.attempts ?? 0;
  }

  /** what a server log needs: the kind, the status and the provider's own message (cut short), never the request */
  logFields(): { kind: AiErrorKind; status: number | undefined; attempts: number; cause: { name: string; message: string; code?: string } | undefined } {
    const cause = this.cause;
    const described = cause instanceof Error
      ? { name: cause.name, message: cause.message.slice(0, MAX_LOGGED_MESSAGE), ...codeOf(cause) }
      : cause === undefined ? undefined : { name: typeof cause, message: String(cause).slice(0, MAX_LOGGED_MESSAGE) };
    return { kind: this.kind, status: this.status, attempts: this.attempts, cause: described };
  }
}

const MAX_LOGGED_MESSAGE = 500;

function codeOf(error: Error): { code?: string } {
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? { code } : {};
}
