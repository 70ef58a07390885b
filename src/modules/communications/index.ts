// The public API of the communications area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { type DeliveryChannel, type DeliveryDraft, type DeliveryState, recordDeliveries, recordDelivery } from './record-delivery.ts';
