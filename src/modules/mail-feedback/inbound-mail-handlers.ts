// Mail for other areas through the one inbound SMTP listener (inbound-smtp.ts). The listener knows
// return paths itself; any other recipient is offered to the handlers areas register here (on
// `services.inboundMail`, from their module's `services`), so this area never imports theirs. A
// handler claims the recipients it knows at RCPT (everything no handler claims is refused: the
// listener never relays and is nobody's mailbox) and receives each complete message once, with the
// recipients it claimed. A handler that throws makes the listener answer 451: the sending server
// tries again later, so a database outage loses no mail; handlers are therefore idempotent.
import type { Config } from '../../app/config.ts';

export interface InboundMail {
  /** the message as received (headers and body), at most the handler's maxBytes */
  raw: Buffer;
  /** the RCPT TO addresses of the session this handler claimed */
  recipients: string[];
  /** the SMTP MAIL FROM (empty for bounces) */
  envelopeFrom: string;
  /** when the listener had the whole message: what latency is measured from */
  receivedAt: Date;
}

export interface InboundMailHandler {
  /** names the handler in logs */
  name: string;
  /** the largest message it takes; the listener advertises the largest of all (SIZE) */
  maxBytes: number;
  /** whether the address is one of the handler's; may read the database (a throw answers 451) */
  claims(address: string): Promise<boolean>;
  receive(mail: InboundMail): Promise<void>;
}

export interface InboundMailRegistry {
  handlers: InboundMailHandler[];
  register(handler: InboundMailHandler): void;
}

export function createInboundMailRegistry(): InboundMailRegistry {
  const handlers: InboundMailHandler[] = [];
  return {
    handlers,
    register(handler) {
      if (handlers.some((h) => h.name === handler.name)) throw new Error(`inbound mail handler ${handler.name} registered twice`);
      handlers.push(handler);
    },
  };
}

/**
 * The domain of the addresses areas hand out for mail to come back to them (conversations' reply
 * and inbox addresses): INBOUND_MAIL_DOMAIN, else MAIL_BOUNCE_DOMAIN, else MAIL_FROM's domain. Its
 * MX must reach this listener.
 */
export function inboundMailDomain(config: Pick<Config, 'INBOUND_MAIL_DOMAIN' | 'MAIL_BOUNCE_DOMAIN' | 'MAIL_FROM'>): string {
  if (config.INBOUND_MAIL_DOMAIN) return config.INBOUND_MAIL_DOMAIN.toLowerCase();
  if (config.MAIL_BOUNCE_DOMAIN) return config.MAIL_BOUNCE_DOMAIN.toLowerCase();
  const from = config.MAIL_FROM.replace(/^.*<([^<>]*)>\s*$/s, '$1').trim();
  return from.slice(from.lastIndexOf('@') + 1).toLowerCase();
}
