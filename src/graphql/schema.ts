// Assembles the schema: each domain registers its types and fields on the shared builder.
import './scalars.ts';
import '../team-roles/team-role.schema.ts';
import '../credentials/api-key.schema.ts';
import '../credentials/session-token.schema.ts';
import '../users/user.schema.ts';
import '../identity/login.schema.ts';
import '../realtime/team-events.schema.ts';
import '../data/records/record.schema.ts';
import '../data/collections/collection.schema.ts';
import '../data/views/view.schema.ts';
import '../data/team-schema/team-schema.schema.ts';
import '../data/audit/audit-log.schema.ts';
import '../mail/mail.schema.ts';
import '../webhooks/webhook.schema.ts';
import '../automations/automation.schema.ts';
import '../wizards/wizard.schema.ts';
import { builder } from './builder.ts';

export const schema = builder.toSchema({ sortSchema: true });
