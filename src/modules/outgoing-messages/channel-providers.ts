// Channels other than email (SMS, WHATSAPP, FACEBOOK) send through a provider: one registry
// keyed by channel. None is configured today, so those messages can be composed and checked but
// not scheduled, sent or test-sent (409 DELIVERY_METHOD_UNAVAILABLE, and a send-readiness
// blocker). EMAIL is not in the registry: it always goes through the platform's mail transport.
// A provider registers itself here when it exists; nothing else in the area changes.

export type ProviderChannel = 'SMS' | 'WHATSAPP' | 'FACEBOOK';

/** One rendered message to one recipient of a provider channel. */
export interface ProviderMessage {
  teamId: bigint;
  /** the recipient's address on the channel (a phone number, a page-scoped id) */
  to: string;
  /** the sender's address on the channel */
  from: string | null;
  text: string;
  /** what sent it, for the provider's own log */
  sourceId: string;
}

export interface ChannelProvider {
  channel: ProviderChannel;
  /** hands the message to the provider; answers the provider's id of it */
  send(message: ProviderMessage): Promise<{ providerMessageId: string }>;
}

const providers = new Map<ProviderChannel, ChannelProvider>();

export function registerChannelProvider(provider: ChannelProvider): void {
  providers.set(provider.channel, provider);
}

/** The provider of a channel, or null: EMAIL needs none (the mail transport), other channels one each. */
export function channelProvider(channel: string): ChannelProvider | null {
  return providers.get(channel as ProviderChannel) ?? null;
}

/** Whether messages of `channel` can be sent now. */
export function channelAvailable(channel: string): boolean {
  return channel === 'EMAIL' || providers.has(channel as ProviderChannel);
}
