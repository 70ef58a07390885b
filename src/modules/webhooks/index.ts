// The public API of the webhooks area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { checkTargetAtCreation, parseTargetUrl, pinnedLookup, resolveTarget, TargetRefused, TargetUnresolved } from './target-guard.ts';
// action tags' lifecycle subscriptions (/v1/action-tags/webhooks): subscription rows of these event
// types, sealed, delivered and logged by this area's machinery
export { ACTION_TAG_EVENT_TYPES, type ActionTagEventType, deliverySettings, deliverySettingsUpdate } from './webhooks.input.ts';
export { secretContext } from './webhook-delivery.ts';
export { webhookId } from './webhooks.ids.ts';
export { WebhookDeliveryPageRef } from './webhooks.schema.ts';
export { checkWebhookTarget, deliveriesOf, GENERIC_SURFACE, insertSubscriptions, type WebhookDeliveryWithAttempts } from './webhooks.service.ts';
