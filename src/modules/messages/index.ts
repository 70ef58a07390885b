// The public API of the messages area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { DELIVERY_METHODS } from './message-templates.input.ts';
export { MessageDeliveryMethodEnum } from './message-templates.schema.ts';
export { messageSenderId, messageTemplateId } from './messages.ids.ts';
export { senderIsVerified, type VerifiableSender } from './sender-verification.ts';
// what a composed message copies from the template it starts from
export { templateBodies, type TemplateBodies } from './template-content.ts';
// action tags' resolver domains: the same normalization of a domain name and the same bounded TXT lookup
export { checkTxtRecord, dnsServers, LOOKUP_TIMEOUT_MS, type VerificationResult } from './domain-verification.ts';
export { domainName, verificationRecordName, verificationRecordValue } from './mail-domains.input.ts';
