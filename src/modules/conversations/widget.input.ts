// Inputs of the chat widget routes (docs/api/conversations.md "Chat widget"), shared by the REST
// table (validated before the operation runs) and the services (again, for GraphQL callers): a
// bad value is 400 VALIDATION_ERROR naming its field, never a 500.
import { z } from 'zod';
import { optionalText, parseEmail } from '../../kernel/index.ts';
import { CONVERSATION_LIMITS, PRIORITIES } from './conversations.input.ts';

export const IDENTITY_MODES = ['OPTIONAL', 'REQUIRED'] as const;
export const WIDGET_POSITIONS = ['RIGHT', 'LEFT'] as const;

export const WIDGET_LIMITS = {
  perTeam: 50,
  name: 100,
  origins: 20,
  origin: 255,
  title: 80,
  greeting: 500,
  label: 40,
  placeholder: 80,
  visitorExternalId: 128,
  /** a visitor token's life: an hour; the frame asks again when it runs out */
  tokenSeconds: 3600,
  /** how far a signed timestamp may be from the server's clock, either way */
  signatureWindowSeconds: 300,
  /** a visitor's message (text only: the widget never sends HTML) */
  content: CONVERSATION_LIMITS.content,
  visitorConversations: 50,
} as const;

export const DEFAULT_APPEARANCE = {
  primaryColor: '#2563EB',
  textColor: '#FFFFFF',
  title: 'Chat with us',
  greeting: 'Hi! How can we help?',
  launcherLabel: 'Chat',
  inputPlaceholder: 'Write a message…',
  position: 'RIGHT',
} as const;
export type Appearance = { -readonly [K in keyof typeof DEFAULT_APPEARANCE]: string };

const NOT_AN_OBJECT = { error: 'The request body must be a JSON object' };
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });
const userSimplyId = z.string({ message: 'must be a user simplyId (usr-XXXX-XXXX-XXXX)' }).regex(/^usr-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a user simplyId (usr-XXXX-XXXX-XXXX)');

/** `#RRGGBB` only: it is written into the frame's stylesheet, so nothing else may pass. */
const color = z
  .string({ message: 'must be a color such as "#2563EB"' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a color such as "#2563EB" (# and six hex digits)')
  .transform((v) => v.toUpperCase());

/** A required one-line text: trimmed, no control characters. */
const line = (max: number, what: string) =>
  optionalText(max, { lineOf: what }).refine((v) => v !== null, 'must not be empty').transform((v) => v!.trim());

/**
 * An https origin (`https://example.org`, `https://shop.example.org:8443`), as a browser sends it:
 * lower-case, no path, query, fragment or credentials; the default port dropped. It becomes part
 * of the frame's `frame-ancestors`, so anything that could widen or break that list is refused.
 */
export const originSchema = z
  .string({ message: 'must be an https origin such as "https://www.example.org"' })
  .max(WIDGET_LIMITS.origin, `must be at most ${WIDGET_LIMITS.origin} characters`)
  .transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an https origin such as "https://www.example.org"' });
      return z.NEVER;
    }
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !/[*\s;,']/.test(raw);
    if (url.protocol !== 'https:' || !bare || !url.hostname) {
      ctx.addIssue({ code: 'custom', message: 'must be an https origin: https://host[:port], without a path, query, wildcard or credentials' });
      return z.NEVER;
    }
    return url.origin;
  });

const origins = z
  .array(originSchema, { message: 'must be a list of https origins' })
  .max(WIDGET_LIMITS.origins, `at most ${WIDGET_LIMITS.origins} origins`)
  .transform((list) => [...new Set(list)]);

const appearance = z.strictObject(
  {
    primaryColor: color.optional(),
    textColor: color.optional(),
    title: line(WIDGET_LIMITS.title, 'the title').optional(),
    greeting: optionalText(WIDGET_LIMITS.greeting).optional(),
    launcherLabel: line(WIDGET_LIMITS.label, 'the launcher label').optional(),
    inputPlaceholder: line(WIDGET_LIMITS.placeholder, 'the placeholder').optional(),
    position: oneOf(WIDGET_POSITIONS).optional(),
  },
  { error: 'must be an object' },
);
export type AppearanceInput = z.output<typeof appearance>;

export const createWidgetInput = z.strictObject(
  {
    name: line(WIDGET_LIMITS.name, 'the name'),
    allowedOrigins: origins.optional(),
    appearance: appearance.optional(),
    identityVerification: oneOf(IDENTITY_MODES).optional(),
    defaultPriority: oneOf(PRIORITIES).optional(),
    defaultAssignedUserId: userSimplyId.nullable().optional(),
    isEnabled: z.boolean({ message: 'must be true or false' }).optional(),
  },
  NOT_AN_OBJECT,
);
export type CreateWidgetInput = z.output<typeof createWidgetInput>;

export const updateWidgetInput = z
  .strictObject(
    {
      name: line(WIDGET_LIMITS.name, 'the name').optional(),
      allowedOrigins: origins.optional(),
      appearance: appearance.optional(),
      identityVerification: oneOf(IDENTITY_MODES).optional(),
      defaultPriority: oneOf(PRIORITIES).optional(),
      defaultAssignedUserId: userSimplyId.nullable().optional(),
      isEnabled: z.boolean({ message: 'must be true or false' }).optional(),
      /** a new identity secret, shown once in the answer; the old one stops verifying at once */
      rotateIdentitySecret: z.boolean({ message: 'must be true or false' }).optional(),
    },
    NOT_AN_OBJECT,
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one field to change' });
export type UpdateWidgetInput = z.output<typeof updateWidgetInput>;

const email = z
  .string({ message: 'must be an email address' })
  .max(254, 'must be at most 254 characters')
  .transform((raw, ctx) => {
    if (raw.trim() === '') return null;
    const parsed = parseEmail(raw);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  })
  .nullable();

const visitorName = optionalText(CONVERSATION_LIMITS.visitorName, { lineOf: 'a name' });
const externalId = z
  .string({ message: 'must be text' })
  .min(1, 'must not be empty')
  .max(WIDGET_LIMITS.visitorExternalId, `must be at most ${WIDGET_LIMITS.visitorExternalId} characters`)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (your own id of the visitor)');

/** The visitor as the team's server names them; `timestamp` and `signature` when it signed them (a browser brings them). */
export const visitorIdentity = z.strictObject(
  {
    visitorId: externalId,
    email: email.optional(),
    name: visitorName.optional(),
    /** Unix time in seconds when the team's server signed it */
    timestamp: z.number({ message: 'must be a Unix time in seconds' }).int('must be a whole number of seconds').optional(),
    /** hex HMAC-SHA256 of the identity (docs: "Identity verification") */
    signature: z.string({ message: 'must be text' }).max(128, 'must be at most 128 characters').optional(),
  },
  { error: 'must be an object' },
);
export type VisitorIdentity = z.output<typeof visitorIdentity>;

const resume = z.strictObject(
  {
    visitorSimplyId: z.string({ message: 'must be a widget visitor simplyId (cwv-XXXX-XXXX-XXXX)' }).regex(/^cwv-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a widget visitor simplyId (cwv-XXXX-XXXX-XXXX)'),
    visitorSecret: z.string({ message: 'must be text' }).min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  },
  { error: 'must be an object' },
);

/** POST …/widgets/{id}/tokens (a team credential) and `openWidgetVisitorSession` (the widget's page). */
export const tokenInput = z.strictObject(
  {
    identity: visitorIdentity.optional(),
    /** an anonymous visitor coming back: the secret their first session answered */
    resume: resume.optional(),
  },
  NOT_AN_OBJECT,
).refine((v) => !(v.identity && v.resume), { message: 'give identity or resume, not both' });
export type TokenInput = z.output<typeof tokenInput>;

export const simulateInput = z.strictObject(
  {
    visitorName: visitorName.optional(),
    visitorEmail: email.optional(),
    /** the visitor's first message; without it the conversation starts with the widget's greeting only */
    message: optionalText(WIDGET_LIMITS.content).optional(),
  },
  NOT_AN_OBJECT,
);
export type SimulateInput = z.output<typeof simulateInput>;

/** A visitor starting a conversation in the widget. */
export const startConversationInput = z.strictObject(
  {
    content: z.string({ message: 'is required' }).max(WIDGET_LIMITS.content, `must be at most ${WIDGET_LIMITS.content} characters`),
    visitorName: visitorName.optional(),
    visitorEmail: email.optional(),
  },
  NOT_AN_OBJECT,
);

export const visitorMessageInput = z.strictObject(
  { content: z.string({ message: 'is required' }).max(WIDGET_LIMITS.content, `must be at most ${WIDGET_LIMITS.content} characters`) },
  NOT_AN_OBJECT,
);
