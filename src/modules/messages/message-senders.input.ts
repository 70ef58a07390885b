// Message sender bodies (docs/api/messages.md "Senders and mail domains") and their limits. Both
// faces validate with these: the REST table before the operation runs, the service for GraphQL.
import { z } from 'zod';
import { DELIVERY_METHODS } from './message-templates.input.ts';
import { normalizeDomain } from './mail-domains.input.ts';

export const MESSAGE_SENDER_LIMITS = {
  name: 200,
  // RFC 5321 §4.5.3.1: a local part of at most 64 octets, a path of at most 256 (254 without the brackets)
  localPart: 64,
  emailAddress: 254,
} as const;

/** Channels a sender can be created for today: others wait for a provider (documented refusal). */
export const SENDER_CHANNELS = ['EMAIL'] as const;

/** The name shown in the From header: one line, so it cannot smuggle in further headers. */
const name = z
  .string({ message: 'must be text of 1-200 characters' })
  .trim()
  .min(1, 'must not be empty')
  .max(MESSAGE_SENDER_LIMITS.name, `must be at most ${MESSAGE_SENDER_LIMITS.name} characters`)
  .refine((v) => !/[\r\n\u0000-\u001f\u007f]/.test(v), 'must be one line without control characters');

// a dot-atom local part (RFC 5322 §3.2.3): what a From address needs, without quoting rules
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** `local@domain`, the domain normalized as mail domains are (lower case, ASCII form). */
export const emailAddress = z
  .string({ message: 'must be an email address such as news@example.org' })
  .trim()
  .max(1000, 'is too long')
  .transform((value, ctx) => {
    const at = value.lastIndexOf('@');
    const local = at > 0 ? value.slice(0, at) : '';
    if (!LOCAL_PART.test(local) || local.length > MESSAGE_SENDER_LIMITS.localPart) {
      ctx.addIssue({ code: 'custom', message: 'must be an email address such as news@example.org (a plain local part of at most 64 characters)' });
      return z.NEVER;
    }
    const domain = normalizeDomain(value.slice(at + 1));
    if (!domain.ok) {
      ctx.addIssue({ code: 'custom', message: `its domain ${domain.reason}` });
      return z.NEVER;
    }
    const address = `${local}@${domain.domain}`;
    if (address.length > MESSAGE_SENDER_LIMITS.emailAddress) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MESSAGE_SENDER_LIMITS.emailAddress} characters` });
      return z.NEVER;
    }
    return address;
  });

export const createMessageSenderInput = z
  .object({
    name,
    deliveryMethod: z
      .enum(DELIVERY_METHODS, { message: `must be one of ${DELIVERY_METHODS.join(', ')}` })
      .default('EMAIL')
      .refine((m) => (SENDER_CHANNELS as readonly string[]).includes(m), 'only EMAIL senders can be created: no SMS, WHATSAPP or FACEBOOK provider is configured yet'),
    emailAddress,
    isDefault: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .strict();

/** Absent keys stay. The default moves by making another sender the default, so only true is taken. */
export const updateMessageSenderInput = z
  .object({
    name: name.optional(),
    isDefault: z.literal(true, { message: 'only true: to change the default, make another sender the default' }).optional(),
  })
  .strict();

export type CreateMessageSenderInput = z.output<typeof createMessageSenderInput>;
export type UpdateMessageSenderInput = z.output<typeof updateMessageSenderInput>;

export const domainOfAddress = (address: string) => address.slice(address.lastIndexOf('@') + 1);
