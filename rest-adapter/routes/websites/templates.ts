// Team website templates → src/modules/websites/website-templates.schema.ts (docs/api/websites.md
// "Templates"): templates, releases, sites made from a template, and a site's or page's connection
// to it. Either websites feature reads; writes need it at edit level and the role the route names.
import { queryBool } from '../../schemas.ts';
import { operation } from '../../../src/app/graphql/fragments.ts';
import {
  WEBSITE_PAGE_TEMPLATE_STATE,
  WEBSITE_TEMPLATE,
  WEBSITE_TEMPLATE_APPLIED,
  WEBSITE_TEMPLATE_CONNECTION,
  WEBSITE_TEMPLATE_RELEASED,
} from '../../../src/modules/websites/website-templates.fragments.ts';
import { createTemplateInput, FROM_TEMPLATE_EXAMPLE, releaseTemplateInput, TEMPLATE_EXAMPLE, updateTemplateInput, websiteFromTemplateInput } from '../../../src/modules/websites/website-templates.input.ts';
import { WEBSITE } from '../../../src/modules/websites/websites.fragments.ts';
import { route } from '../../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../../route-shapes.ts';

const TEMPLATES = '/v1/website-templates';
const TEMPLATE = `${TEMPLATES}/{teamWebsiteTemplateSimplyId}`;

export const websiteTemplateRoutes = [
  listPage({
    path: TEMPLATES,
    summary: 'List website templates',
    description: 'The team’s templates, newest first, each with its source site, newest release number and connected-site count; archived ones with includeArchived=true (TEAM_WEBSITES or TEAM_ADMIN_WEBSITES; websites:read)',
    name: 'WebsiteTemplates',
    select: WEBSITE_TEMPLATE,
    filters: { includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived templates (default false)') } },
  }),
  createOne({
    path: TEMPLATES,
    summary: 'Create a website template',
    description: '{ name, description?, sourceWebsiteSimplyId }: a template of a site the caller edits; nothing is copied until it is released (EDITOR on the source site; websites:write)',
    name: 'CreateWebsiteTemplate',
    inputType: 'JSON',
    body: createTemplateInput,
    example: TEMPLATE_EXAMPLE,
    select: WEBSITE_TEMPLATE,
  }),
  getOne({ path: TEMPLATE, summary: 'Get a website template', description: 'With its newest 50 releases and its connected sites (websites:read)', name: 'WebsiteTemplate', arg: 'teamWebsiteTemplateSimplyId', select: WEBSITE_TEMPLATE }),
  updateOne({
    method: 'PUT',
    path: TEMPLATE,
    summary: 'Change a website template',
    description: 'Only the supplied fields change: name, description (null clears), sourceWebsiteSimplyId (a site the caller edits); 409 WEBSITE_TEMPLATE_ARCHIVED once archived (websites:write)',
    name: 'UpdateWebsiteTemplate',
    arg: 'teamWebsiteTemplateSimplyId',
    inputType: 'JSON',
    body: updateTemplateInput,
    example: { name: 'Chapter site (2027)', description: null },
    select: WEBSITE_TEMPLATE,
  }),
  actOn({
    method: 'DELETE',
    path: TEMPLATE,
    summary: 'Delete a website template',
    description: 'Archives it: its releases and connected sites stay, sites already connected keep what they have; it makes no new sites or releases (websites feature at edit level; websites:write)',
    name: 'DeleteWebsiteTemplate',
    arg: 'teamWebsiteTemplateSimplyId',
  }),
  updateOne({
    method: 'POST',
    path: `${TEMPLATE}/release`,
    summary: 'Release a website template',
    description:
      '{ releaseNotes?, applyAutoSites? (default true), managedPublish? (default false) }: an immutable, numbered snapshot of the source site’s page drafts and settings. Every connected site gets it as its pending release; with applyAutoSites a WEBSITE_TEMPLATE_RELEASE task (backgroundTaskSimplyId) applies it to the AUTO sites, publishing the pages it changed when managedPublish is true. 201 (EDITOR on the source site; websites:write)',
    name: 'ReleaseWebsiteTemplate',
    arg: 'teamWebsiteTemplateSimplyId',
    inputType: 'JSON',
    body: releaseTemplateInput,
    example: { releaseNotes: 'New donation page and a lighter footer', applyAutoSites: true, managedPublish: false },
    select: WEBSITE_TEMPLATE_RELEASED,
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${TEMPLATE}/websites`,
    summary: 'Create a website from a template',
    description:
      '{ name, slug?, enumAppBrandId?, defaultLanguageTagId?, templateSyncMode? (AUTO or REVIEW, default REVIEW) }: a new site owned by the caller, connected to the template; a WEBSITE_COPY task copies the newest release into it; follow it at GET /v1/background-tasks/{backgroundTaskSimplyId}. 409 WEBSITE_TEMPLATE_ARCHIVED, WEBSITE_TEMPLATE_NOT_RELEASED. 201 (websites feature at edit level; websites:write)',
    operation: operation`mutation CreateWebsiteFromTemplate($id: String!, $input: JSON!) { createWebsiteFromTemplate(teamWebsiteTemplateSimplyId: $id, input: $input) { website { ${WEBSITE} } connection { ${WEBSITE_TEMPLATE_CONNECTION} } releaseNumber backgroundTaskSimplyId status } }`,
    body: websiteFromTemplateInput,
    example: FROM_TEMPLATE_EXAMPLE,
    variables: ({ params, body }) => ({ id: params.teamWebsiteTemplateSimplyId, input: body }),
    status: 201,
  }),
  actOn({
    method: 'POST',
    path: '/v1/websites/{websiteSimplyId}/template/apply',
    summary: 'Apply the pending template release',
    description:
      'Brings the site to its pending release: new template pages are added, pages the template wrote last are updated, pages edited on the site since keep their drafts (keptLocal), detached pages are left alone, pages the template removed stay; nothing is published. 409 WEBSITE_NOT_FROM_TEMPLATE, WEBSITE_TEMPLATE_NOTHING_TO_APPLY (EDITOR; websites:write)',
    name: 'ApplyWebsiteTemplate',
    select: WEBSITE_TEMPLATE_APPLIED,
  }),
  actOn({
    method: 'POST',
    path: '/v1/websites/{websiteSimplyId}/template/disconnect',
    summary: 'Disconnect a website from its template',
    description: 'The site stops following its template; its pages stay as they are. 409 WEBSITE_NOT_FROM_TEMPLATE (OWNER; websites:write)',
    name: 'DisconnectWebsiteTemplate',
    select: WEBSITE_TEMPLATE_CONNECTION,
  }),
  actOn({
    method: 'POST',
    path: '/v1/website-pages/{pageSimplyId}/template/detach',
    summary: 'Detach a page from its template',
    description: 'The page stops following template releases; the rest of the site still follows. 409 WEBSITE_PAGE_NOT_FROM_TEMPLATE when it does not follow one (EDITOR; websites:write)',
    name: 'DetachWebsitePageTemplate',
    select: WEBSITE_PAGE_TEMPLATE_STATE,
  }),
];
