// The module list: every area of the platform, each with its REST table. The schema, the
// router, the services of an instance, the job queues, the outbox consumers, OpenAPI and the route
// checklist are all built from this one list. Adding an area: a folder under src/modules/, a
// route file under rest-adapter/routes/ with the same name, and one line here.
// Order matters where one module's services use another's (mail after collections).
import { auditLogRoutes } from '../../rest-adapter/routes/audit-log.ts';
import { automationRoutes } from '../../rest-adapter/routes/automations.ts';
import { dataCollectionRoutes } from '../../rest-adapter/routes/collections.ts';
import { credentialRoutes } from '../../rest-adapter/routes/credentials.ts';
import { authRoutes } from '../../rest-adapter/routes/identity.ts';
import { mailRoutes } from '../../rest-adapter/routes/mail.ts';
import { dataRecordRoutes } from '../../rest-adapter/routes/records.ts';
import { teamRoleRoutes } from '../../rest-adapter/routes/team-roles.ts';
import { teamSchemaRoutes } from '../../rest-adapter/routes/team-schema.ts';
import { userRoutes } from '../../rest-adapter/routes/users.ts';
import { teamAssistantRoutes } from '../../rest-adapter/routes/team-assistant.ts';
import { dataViewRoutes } from '../../rest-adapter/routes/views.ts';
import { cardGroupRoutes } from '../../rest-adapter/routes/card-groups.ts';
import { fileRoutes } from '../../rest-adapter/routes/files.ts';
import { webhookRoutes } from '../../rest-adapter/routes/webhooks.ts';
import { dataWizardRoutes } from '../../rest-adapter/routes/wizards.ts';
import { notificationRoutes } from '../../rest-adapter/routes/notifications.ts';
import { mfaRoutes } from '../../rest-adapter/routes/mfa.ts';
import { messageRoutes } from '../../rest-adapter/routes/messages.ts';
import { outgoingMessageRoutes } from '../../rest-adapter/routes/outgoing-messages.ts';
import { communicationRoutes } from '../../rest-adapter/routes/communications.ts';
import { contentTemplateRoutes } from '../../rest-adapter/routes/content-templates.ts';
import { mailFeedbackRoutes } from '../../rest-adapter/routes/mail-feedback.ts';
import { constituentAuthRoutes } from '../../rest-adapter/routes/constituent-auth.ts';
import { auditLogModule } from '../modules/audit-log/module.ts';
import { automationsModule } from '../modules/automations/module.ts';
import { collectionsModule } from '../modules/collections/module.ts';
import { credentialsModule } from '../modules/credentials/module.ts';
import { filesModule } from '../modules/files/module.ts';
import { identityModule } from '../modules/identity/module.ts';
import { mailModule } from '../modules/mail/module.ts';
import { recordsModule } from '../modules/records/module.ts';
import { teamRolesModule } from '../modules/team-roles/module.ts';
import { teamSchemaModule } from '../modules/team-schema/module.ts';
import { teamsModule } from '../modules/teams/module.ts';
import { usersModule } from '../modules/users/module.ts';
import { viewsModule } from '../modules/views/module.ts';
import { cardGroupsModule } from '../modules/card-groups/module.ts';
import { webhooksModule } from '../modules/webhooks/module.ts';
import { wizardsModule } from '../modules/wizards/module.ts';
import { notificationsModule } from '../modules/notifications/module.ts';
import { mfaModule } from '../modules/mfa/module.ts';
import { messagesModule } from '../modules/messages/module.ts';
import { mergeTagsModule } from '../modules/merge-tags/module.ts';
import { communicationsModule } from '../modules/communications/module.ts';
import { mailFeedbackModule } from '../modules/mail-feedback/module.ts';
import { outgoingMessagesModule } from '../modules/outgoing-messages/module.ts';
import { contentTemplatesModule } from '../modules/content-templates/module.ts';
import { constituentAuthModule } from '../modules/constituent-auth/module.ts';
import { signingModule } from '../modules/signing/module.ts';
import { signingRoutes } from '../../rest-adapter/routes/signing.ts';
import { backgroundTasksModule } from '../modules/background-tasks/module.ts';
import { backgroundTaskRoutes } from '../../rest-adapter/routes/background-tasks.ts';
import { oauthModule } from '../modules/oauth/module.ts';
import { mcpModule } from '../modules/mcp/module.ts';
import { teamAssistantModule } from '../modules/team-assistant/module.ts';
import { conversationsModule } from '../modules/conversations/module.ts';
import { conversationRoutes } from '../../rest-adapter/routes/conversations.ts';
import { websitesModule } from '../modules/websites/module.ts';
import { websiteRoutes } from '../../rest-adapter/routes/websites.ts';
import { actionTagsModule } from '../modules/action-tags/module.ts';
import { actionTagRoutes } from '../../rest-adapter/routes/action-tags.ts';
import { spaceBookingsModule } from '../modules/space-bookings/module.ts';
import { spaceBookingRoutes } from '../../rest-adapter/routes/space-bookings.ts';
import type { AppModule } from '../app/module.ts';
import type { RegisteredModule, RestRoute } from '../../rest-adapter/route.ts';

const entry = (module: AppModule, routes: readonly RestRoute[] = []): RegisteredModule => ({ ...module, routes });

export const modules: readonly RegisteredModule[] = [
  entry(identityModule, authRoutes),
  entry(credentialsModule, credentialRoutes),
  entry(teamRolesModule, teamRoleRoutes),
  entry(usersModule, userRoutes),
  entry(mfaModule, mfaRoutes),
  entry(teamsModule),
  entry(collectionsModule, dataCollectionRoutes),
  entry(recordsModule, dataRecordRoutes),
  entry(viewsModule, dataViewRoutes),
  entry(cardGroupsModule, cardGroupRoutes),
  entry(teamSchemaModule, teamSchemaRoutes),
  entry(auditLogModule, auditLogRoutes),
  entry(mailModule, mailRoutes),
  entry(mergeTagsModule),
  entry(filesModule, fileRoutes),
  entry(webhooksModule, webhookRoutes),
  entry(automationsModule, automationRoutes),
  entry(wizardsModule, dataWizardRoutes),
  entry(notificationsModule, notificationRoutes),
  entry(messagesModule, messageRoutes),
  entry(communicationsModule, communicationRoutes),
  entry(mailFeedbackModule, mailFeedbackRoutes),
  entry(contentTemplatesModule, contentTemplateRoutes),
  entry(outgoingMessagesModule, outgoingMessageRoutes),
  entry(constituentAuthModule, constituentAuthRoutes),
  entry(signingModule, signingRoutes),
  entry(conversationsModule, conversationRoutes),
  entry(backgroundTasksModule, backgroundTaskRoutes),
  entry(oauthModule),
  entry(mcpModule),
  entry(teamAssistantModule, teamAssistantRoutes),
  entry(websitesModule, websiteRoutes),
  entry(actionTagsModule, actionTagRoutes),
  entry(spaceBookingsModule, spaceBookingRoutes),
];

/** Every REST route, in module order. */
export const routes: readonly RestRoute[] = modules.flatMap((m) => m.routes);
