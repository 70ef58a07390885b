// Every documented /v1 route. Adding one: an entry here (and, where needed, a GraphQL field).
import { authRoutes } from './auth.ts';
import { credentialRoutes } from './credentials.ts';
import { auditLogRoutes } from './audit-log.ts';
import { dataCollectionRoutes } from './data-collections.ts';
import { dataRecordRoutes } from './data-records.ts';
import { dataViewRoutes } from './data-views.ts';
import { teamSchemaRoutes } from './team-schema.ts';
import { teamRoleRoutes } from './team-roles.ts';
import { userRoutes } from './users.ts';
import { mailRoutes } from './mail.ts';
import { webhookRoutes } from './webhooks.ts';
import { automationRoutes } from './automations.ts';
import { dataWizardRoutes } from './data-wizards.ts';

export const routes = [...authRoutes, ...credentialRoutes, ...teamRoleRoutes, ...userRoutes, ...dataRecordRoutes, ...dataViewRoutes, ...teamSchemaRoutes, ...auditLogRoutes, ...dataCollectionRoutes,
  ...mailRoutes, ...webhookRoutes, ...automationRoutes, ...dataWizardRoutes];
