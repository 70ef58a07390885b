// The errors of the chat widgets (docs/api/conversations.md "Chat widget", "Errors"). A visitor's
// identity that does not verify is 401 with a code saying why, so the team's developers can tell a
// wrong secret from a stale page (an old timestamp) from a replay; none of them tells an attacker
// anything the signature does not already.
import { ApiError } from '../../app/errors.ts';

/** The widget requires a signed identity and none was given. */
export class WidgetIdentityRequiredError extends ApiError {
  constructor() {
    super(401, 'WIDGET_IDENTITY_REQUIRED', 'This widget requires a verified visitor: its page must pass the identity its server signed (visitorId, timestamp, signature)');
  }
}

/** The signature is not the HMAC of the identity under the widget's secret. */
export class WidgetIdentityInvalidError extends ApiError {
  constructor() {
    super(401, 'WIDGET_IDENTITY_INVALID', 'The visitor identity signature does not verify: sign it with the widget’s current identity secret, exactly as documented');
  }
}

/** The signed timestamp is outside the accepted window. */
export class WidgetIdentityExpiredError extends ApiError {
  constructor(windowSeconds: number) {
    super(401, 'WIDGET_IDENTITY_EXPIRED', `The visitor identity was signed more than ${windowSeconds} seconds from now: sign it anew when the page is served`);
  }
}

/** The same signed identity was used before: each one opens one visitor session. */
export class WidgetIdentityReplayedError extends ApiError {
  constructor() {
    super(401, 'WIDGET_IDENTITY_REPLAYED', 'This signed visitor identity was used already: each signature opens one session; sign a new one');
  }
}

/** An anonymous visitor's resume secret that does not match. */
export class WidgetVisitorResumeInvalidError extends ApiError {
  constructor() {
    super(401, 'WIDGET_VISITOR_RESUME_INVALID', 'The visitor cannot be resumed with this secret: start as a new visitor');
  }
}

/** The widget exists but is switched off. */
export class WidgetDisabledError extends ApiError {
  constructor(simplyId: string) {
    super(403, 'WIDGET_DISABLED', `Widget ${simplyId} is disabled: it opens no visitor sessions until it is enabled again`);
  }
}
