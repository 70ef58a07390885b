// Every write route's races, keyed by `${method} ${path}` as in the route table. A write route
// added later without an entry here fails the suite naming it.
import { automationRaces } from './cases/automation-races.ts';
import { backgroundTaskRaces } from './cases/background-task-races.ts';
import { collectionRaces } from './cases/collection-races.ts';
import { constituentAuthRaces } from './cases/constituent-auth-races.ts';
import { contentTemplateRaces } from './cases/content-template-races.ts';
import { credentialRaces } from './cases/credential-races.ts';
import { fileRaces } from './cases/file-races.ts';
import { messageSenderRaces } from './cases/message-sender-races.ts';
import { messageTemplateRaces } from './cases/message-template-races.ts';
import { mfaRaces } from './cases/mfa-races.ts';
import { notificationRaces } from './cases/notification-races.ts';
import { outgoingMessageRaces } from './cases/outgoing-message-races.ts';
import { recordRaces } from './cases/record-races.ts';
import { signingRaces } from './cases/signing-races.ts';
import { suppressionRaces } from './cases/suppression-races.ts';
import { teamRoleRaces } from './cases/team-role-races.ts';
import { userSelfServiceRaces } from './cases/user-self-service-races.ts';
import { viewRaces } from './cases/view-races.ts';
import { webhookRaces } from './cases/webhook-races.ts';
import { wizardRaces } from './cases/wizard-races.ts';
import type { RaceTable } from './race-kit.ts';

export const WRITE_RACES: RaceTable = {
  ...credentialRaces,
  ...teamRoleRaces,
  ...collectionRaces,
  ...recordRaces,
  ...viewRaces,
  ...webhookRaces,
  ...automationRaces,
  ...wizardRaces,
  ...fileRaces,
  ...notificationRaces,
  ...userSelfServiceRaces,
  ...mfaRaces,
  ...messageTemplateRaces,
  ...messageSenderRaces,
  ...contentTemplateRaces,
  ...outgoingMessageRaces,
  ...suppressionRaces,
  ...constituentAuthRaces,
  ...signingRaces,
  ...backgroundTaskRaces,
};
