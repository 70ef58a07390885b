// One of everything a route's path can name, built for a team through the API: the route-table
// suites (fuzz, tenant isolation, concurrency) fill every `{param}` of every served route from it,
// so a route added later is covered without a new test. A route with a path parameter no builder
// here knows fails those suites with a message naming it: add the builder below.
import { randomBytes } from 'node:crypto';
import type { Env } from '../../src/app/config.ts';
import { inTransaction } from '../../src/app/transaction.ts';
import { recordDelivery } from '../../src/modules/communications/record-delivery.ts';
import { backgroundTaskId, recordOutputId, recordTaskLinkId } from '../../src/modules/background-tasks/background-tasks.ids.ts';
import { insertErrors } from '../../src/modules/background-tasks/tasks.sql.ts';
import { modules } from '../../src/main/modules.ts';
import { routeExtensions } from '../../rest-adapter/openapi-extensions.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { createWizard } from './wizard-fixtures.ts';
import { uploadFile } from './file-uploads.ts';
import { png } from './file-samples.ts';
import { until } from './until.ts';
import { notifyMember } from './notification-fixtures.ts';
import { addMember, createApiKey, type TeamFixture } from './fixtures.ts';
import type { StartOptions, TestServer } from './server.ts';

/** every served REST route, in module order */
export const servedRoutes: readonly RestRoute[] = modules.flatMap((m) => m.routes);

/**
 * Routes of other credential families that name nothing of a team: constituent sign-in (its own
 * tokens) and the public routes (a signer's link, the first-party sign-in). A team credential
 * selecting another team changes nothing there.
 */
export const teamlessRoutes: ReadonlySet<RestRoute> = new Set([
  ...(modules.find((m) => m.name === 'constituent-auth')?.routes ?? []),
  ...servedRoutes.filter((r) => routeExtensions[`${r.method} ${r.path}`]?.public),
]);

/**
 * useServer options for a suite that builds worlds: its webhook targets the loopback discard port,
 * and its file is promoted by a job, so the server runs its workers, on a database of the suite's
 * own (job queues are global to a database: another file's workers, with another storage folder,
 * would take the promotion).
 */
export const routeWorldServer = (database: string, env: Partial<Env> = {}): StartOptions & { ownDatabase: string } => ({
  // mail-domain verification asks a closed loopback port: refused at once, the check answers PENDING
  env: { WEBHOOK_ALLOW_LOOPBACK: true, MAIL_DOMAIN_DNS_SERVERS: '127.0.0.1:9', ...env },
  runJobs: true,
  ownDatabase: database,
});

/** path parameters the world fills with a value no team owns (the same for every team): never "another team's id" */
export const NOT_TEAM_IDS: ReadonlySet<string> = new Set(['versionNumber']);

/** the `{name}`s of a route's path */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

export interface RouteWorld {
  team: TeamFixture;
  /** path parameter name → an id of this team's resource (for NOT_TEAM_IDS: a value every team has) */
  ids: Record<string, string>;
  /** names and titles given to this team's resources (a response to another team must contain none) */
  names: string[];
}

async function ok(response: { status: number; text: string; body: any }, what: string): Promise<any> {
  if (response.status >= 300) throw new Error(`route world: ${what} answered ${response.status} ${response.text}`);
  return response.body.data;
}

/** Builds the world for `team`; `label` goes into every name so leaks are recognisable. */
export async function buildRouteWorld(server: TestServer, team: TeamFixture, label = `w${randomBytes(3).toString('hex')}`): Promise<RouteWorld> {
  const token = team.apiKey;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const name = (what: string) => `${label} ${what}`;
  // the media library waits on a promotion job: built alongside the rest
  const media = buildMediaLibrary(server, team, name);
  const personal = await buildPersonalWorld(server, team, name);

  const collection = await ok(await call('POST', '/v1/data-collections', { name: name('Collection') }), 'create collection');
  const field = await ok(await call('POST', `/v1/data-collections/${collection.id}/fields`, { title: name('Field'), dataType: 'PLAIN_TEXT' }), 'create field');
  const record = await ok(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [field.id]: name('Record') } }), 'create record');
  const view = await ok(await call('POST', '/v1/data-views', { dataCollectionSimplyId: collection.id, name: name('View'), enumDataViewTypeId: 'LIST' }), 'create view');
  const role = await ok(await call('POST', '/v1/team-roles', { name: name('Role') }), 'create role');
  const webhook = await ok(await call('POST', '/v1/webhooks', { eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://127.0.0.1:9/hooks/in', retryCount: 0 }), 'create webhook');
  const automation = await ok(
    await call('POST', '/v1/automations', {
      name: name('Automation'),
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: collection.id,
      isEnabled: false,
      actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [field.id]: 'x' } } }],
    }),
    'create automation',
  );
  const session = await ok(await call('POST', '/v1/session-tokens', {}), 'mint session token');
  const apiKey = await createApiKey(server, team, { name: name('Key') });
  const member = await addMember(server, team);
  const wizard = await createWizard(server, token, { name: name('Wizard'), dataCollectionSimplyId: collection.id, steps: [{ title: name('Step') }] });
  const messageTemplate = await ok(
    await call('POST', '/v1/message-templates', { name: name('Message template'), deliveryMethod: 'EMAIL', subjectLine: 'world subject' }),
    'create message template',
  );
  const { mailDomain, messageSender } = await buildMessageSender(server, team, name);
  const mail = await mailWithHistory(server, team, record.id, `${label}@x.test`, name('Mail'));
  const contentTemplate = await ok(
    await call('POST', '/v1/content-templates', {
      name: name('Content template'),
      dataCollectionSimplyId: collection.id,
      textContent: 'Hello {{record.name}}',
      documentSettings: { headerHtml: '<b>{{record.name}}</b>' },
    }),
    'create content template',
  );
  const outgoingMessage = await ok(
    await call('POST', '/v1/outgoing-messages', {
      internalName: name('Outgoing message'),
      subjectLine: 'world',
      htmlContent: '<p>x</p>',
      recipients: { dataCollectionSimplyId: collection.id },
    }),
    'create outgoing message',
  );
  // a signing request on the record (its invitation is a stored mail: the world sends none)
  const signingRequest = await ok(
    await call('POST', '/v1/signing-requests', {
      sourceDataCollectionSimplyId: collection.id,
      sourceDataRecordSimplyId: record.id,
      reviewFieldSimplyIds: [field.id],
      signers: [{ roleKey: 'signer', name: name('Signer'), email: `signer-${randomBytes(4).toString('hex')}@example.org` }],
      expirationDays: 30,
    }),
    'create signing request',
  );
  // an address of this team's suppression list, not built from the label (which may hold spaces)
  const suppressed = await ok(await call('POST', '/v1/message-suppressions', { address: `suppressed-${randomBytes(4).toString('hex')}@example.org` }), 'suppress an address');

  const ids: Record<string, string> = {
    dataCollectionSimplyId: collection.id,
    dataFieldSimplyId: field.id,
    dataRecordSimplyId: record.id,
    recordSimplyId: record.id,
    dataViewSimplyId: view.id,
    teamRoleSimplyId: role.id,
    webhookSimplyId: webhook.id,
    automationSimplyId: automation.id,
    automationActionSimplyId: automation.actions[0].id,
    sessionTokenId: session.id,
    apiKeySimplyId: apiKey.id,
    userSimplyId: member.userSimplyId,
    dataWizardSimplyId: wizard.dataWizardSimplyId,
    mailSimplyId: mail.simplyId,
    outgoingMessageTemplateSimplyId: messageTemplate.id,
    mailDomainSimplyId: mailDomain,
    messageSenderSimplyId: messageSender,
    contentTemplateSimplyId: contentTemplate.id,
    outgoingMessageSimplyId: outgoingMessage.id,
    messageSimplyId: outgoingMessage.id,
    address: suppressed.address,
    signingRequestSimplyId: signingRequest.id,
    ...personal,
    ...(await media),
  };
  Object.assign(ids, await buildTaskWorld(server, team, { collection: collection.id, record: record.id, file: ids.fileSimplyId! }, name));
  const names = ['Collection', 'Field', 'Record', 'View', 'Role', 'Automation', 'Key', 'Wizard', 'Step', 'Mail', 'Folder', 'Label', 'Image.png', 'Alt text', 'Device', 'Session', 'Notification', 'Message template', 'Sender', 'Content template', 'Outgoing message', 'Signer'];
  return { team, ids, names: names.map(name) };
}

/**
 * A finished document generation of the team's admin with one error entry and one succeeded
 * output (the world's image, held by a file field of the world's collection), and an output
 * default into that field. The task rows are written as the task runner writes them: the world
 * renders no PDF.
 */
async function buildTaskWorld(server: TestServer, team: TeamFixture, of: { collection: string; record: string; file: string }, name: (what: string) => string): Promise<Record<string, string>> {
  const { prisma, pool } = server.app.services;
  const asAdmin = { token: team.userToken, teamId: team.teamSimplyId };
  const fileField = await ok(await server.request('POST', `/v1/data-collections/${of.collection}/fields`, { token: team.apiKey, body: { title: name('Document'), dataType: 'SINGLE_FILE' } }), 'create file field');
  await ok(await server.request('PATCH', `/v1/data-records/${of.record}`, { token: team.apiKey, body: { fields: { [fileField.id]: of.file } } }), 'attach the image');
  const task = await prisma.backgroundTask.create({
    data: { simplyId: backgroundTaskId.create(), teamId: team.teamId, taskType: 'DOCUMENT_GENERATION', status: 'PARTIAL_SUCCESS', userId: team.userId, queueData: {}, progress: { processedCount: 2, totalCount: 2 }, result: { successCount: 1, failureCount: 1 }, completedAt: new Date() },
  });
  await insertErrors(pool, team.teamId, task.id, [{ errorType: 'RECORD_NOT_FOUND', errorMessage: 'world error', errorContext: { dataRecordSimplyId: 'AAAA-BBBB-CCCC' } }]);
  const error = await prisma.backgroundTaskError.findFirstOrThrow({ where: { teamId: team.teamId, taskId: task.id } });
  const record = await prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: of.record }, select: { id: true } });
  const file = await prisma.storedFile.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: of.file }, select: { id: true, filename: true, mimeType: true } });
  const link = await prisma.recordTaskLink.create({ data: { simplyId: recordTaskLinkId.create(), teamId: team.teamId, taskId: task.id, dataRecordId: record.id, recordStatus: 'SUCCEEDED', completedAt: new Date() } });
  const output = await prisma.recordTaskOutput.create({
    data: {
      simplyId: recordOutputId.create(), teamId: team.teamId, taskId: task.id, linkId: link.id, dataRecordId: record.id, outputKey: 'document', status: 'SUCCEEDED',
      destinationWriteStatus: 'WRITTEN', destinationWriteMode: 'REPLACE', destinationFieldSimplyId: fileField.id, fileId: file.id,
      result: { filename: file.filename, contentType: file.mimeType },
    },
  });
  const defaults = await ok(
    await server.request('PUT', '/v1/background-tasks/output-defaults', { ...asAdmin, body: { dataCollectionSimplyId: of.collection, enumBackgroundTaskTypeId: 'DOCUMENT_GENERATION', outputKey: 'document', dataFieldSimplyId: fileField.id, writeMode: 'REPLACE' } }),
    'set an output default',
  );
  return { backgroundTaskSimplyId: task.simplyId, backgroundTaskErrorSimplyId: error.simplyId, recordOutputSimplyId: output.simplyId, defaultSimplyId: defaults.defaultSimplyId };
}

/**
 * A mail domain and a sender on it. The world has no DNS server to publish the proof on, so the
 * domain is marked VERIFIED in the database (as the verify route would after finding the record);
 * the sender is then created through the API, which checks that.
 */
async function buildMessageSender(server: TestServer, team: TeamFixture, name: (what: string) => string): Promise<{ mailDomain: string; messageSender: string }> {
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.apiKey, body });
  const domain = await ok(await call('POST', '/v1/message-senders/domains', { domain: `world-${randomBytes(5).toString('hex')}.example` }), 'add mail domain');
  await server.app.services.prisma.teamMailDomain.updateMany({ where: { teamId: team.teamId, simplyId: domain.id }, data: { status: 'VERIFIED', verifiedAt: new Date() } });
  const sender = await ok(await call('POST', '/v1/message-senders', { name: name('Sender'), emailAddress: `news@${domain.domain}` }), 'create message sender');
  return { mailDomain: domain.id, messageSender: sender.id };
}

/**
 * A mail to the world's record and its entry in the record's communication history, written
 * together as a sender does (the history follows the mail's state), so history reads are not empty.
 */
async function mailWithHistory(server: TestServer, team: TeamFixture, recordSimplyId: string, destination: string, subject: string): Promise<{ simplyId: string }> {
  const services = server.app.services;
  const record = await services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: recordSimplyId }, select: { id: true } });
  const mail = await inTransaction(services.pool, async (db) => {
    const queued = await services.mail.enqueue({ teamId: team.teamId, to: [destination], subject, text: 'body', source: 'SYSTEM' }, db);
    await recordDelivery(db, { teamId: team.teamId, dataRecordId: record.id, sourceType: 'SYSTEM', channelId: 'EMAIL', mailMessageId: queued.id, destination, subject, text: 'body' });
    return queued;
  });
  const history = await ok(await server.request('GET', `/v1/data-records/${recordSimplyId}/communications`, { token: team.apiKey }), "read the record's history");
  if (!Array.isArray(history) || history.length !== 1) throw new Error(`route world: the record's history holds ${JSON.stringify(history)}, not the one delivery`);
  return mail;
}

/**
 * What belongs to the team's admin as a person (the signed-in-user routes): a registered device, a
 * sign-in session, their membership, and a notification in the team (written by the platform's
 * notify service: there is no create route).
 */
async function buildPersonalWorld(server: TestServer, team: TeamFixture, name: (what: string) => string): Promise<Record<string, string>> {
  const token = team.userToken;
  const device = await ok(
    await server.request('POST', '/v1/users/me/mobile-devices/current', { token, body: { installationId: `world-${randomBytes(4).toString('hex')}`, platform: 'ios', deviceName: name('Device') } }),
    'register a device',
  );
  const signedIn = await ok(await server.request('POST', '/v1/auth/login', { body: { email: team.email, password: team.password, deviceName: name('Session') } }), 'sign in');
  const sessions = await ok(await server.request('GET', '/v1/users/me/sessions', { token: signedIn.accessToken }), 'list sessions');
  const session = (sessions as { sessionSimplyId: string; isCurrent: boolean }[]).find((s) => s.isCurrent);
  if (!session) throw new Error('route world: the new sign-in is not among the sessions');
  const membership = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: team.teamId, userId: team.userId }, select: { simplyId: true } });
  const notificationSimplyId = await notifyMember(server, team, { userSimplyId: team.userSimplyId }, { title: name('Notification') });
  return { deviceSimplyId: device.deviceSimplyId, sessionSimplyId: session.sessionSimplyId, teamUserLinkSimplyId: membership.simplyId, notificationSimplyId };
}

/**
 * A folder, a label, and an image in the folder carrying the label, uploaded through the real flow
 * (intent, signed post, complete, promotion by the server's worker) with the team's API key: its
 * upload is the world's intent. Ready once its variants are: rendered later, they would change the
 * team's reads while the suites compare them.
 */
async function buildMediaLibrary(server: TestServer, team: TeamFixture, name: (what: string) => string): Promise<Record<string, string>> {
  if (!server.app.services.jobs.isWorking) {
    throw new Error('route world: its file is promoted by a job, and this server runs none; start it with routeWorldServer() (test/support/route-world.ts)');
  }
  const token = team.apiKey;
  const folder = await ok(await server.request('POST', '/v1/files/folders', { token, body: { name: name('Folder') } }), 'create folder');
  const label = await server.graphql('mutation($input: CreateTeamLabelInput!) { createTeamLabel(input: $input) { id } }', { input: { name: name('Label') } }, { token });
  if (!label.data) throw new Error(`route world: create label answered ${JSON.stringify(label.errors)}`);
  const upload = await uploadFile(server, token, await png(), { filename: name('Image.png'), contentType: 'image/png', fileFolderSimplyId: folder.fileFolderSimplyId });
  if (upload.status !== 'COMPLETED') throw new Error(`route world: the image's upload ended ${upload.status} (${upload.rejectionReason}: ${upload.rejectionMessage})`);
  const labelId: string = (label.data as { createTeamLabel: { id: string } }).createTeamLabel.id;
  await ok(await server.request('PATCH', `/v1/files/${upload.fileSimplyId}`, { token, body: { altText: name('Alt text'), labelSimplyIds: [labelId] } }), 'label the image');
  await until(
    "the world image's variants",
    async () => ((await server.request('GET', `/v1/files/${upload.fileSimplyId}/variants`, { token })).body?.data ?? []).length > 0,
    20_000,
  );
  return {
    fileFolderSimplyId: folder.fileFolderSimplyId,
    labelSimplyId: labelId,
    fileSimplyId: upload.fileSimplyId,
    fileUploadSimplyId: upload.fileUploadSimplyId,
    versionNumber: '1',
  };
}

/** The route's path with every parameter taken from `ids`; throws naming a parameter the world lacks. */
export function fillPath(route: RestRoute, ids: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const id = ids[param];
    if (!id) throw new Error(`${route.method} ${route.path}: no builder for {${param}} in test/support/route-world.ts`);
    return encodeURIComponent(id);
  });
}
