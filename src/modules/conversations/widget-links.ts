// Where a widget's embed lives (docs/api/conversations.md "Chat widget"): outside /v1, served by the
// front door (widget-endpoints.ts) because a visitor's browser loads them without a credential.
//   /widget/v1/loader.js?w=<cwg-…>     the script a team puts on its pages
//   /widget/v1/frame/<cwg-…>           the chat page the script opens in an iframe
//   /widget/v1/assets/<name>           the frame's own script, stylesheet and the graphql-ws client
import type { Services } from '../../app/context.ts';
import { publicBaseUrl } from '../../app/public-address.ts';

export const WIDGET_PREFIX = '/widget/v1/';
export const LOADER_PATH = `${WIDGET_PREFIX}loader.js`;
export const FRAME_PATH = `${WIDGET_PREFIX}frame/`;
export const ASSET_PATH = `${WIDGET_PREFIX}assets/`;


export const loaderUrl = (services: Services, widgetSimplyId: string) => `${publicBaseUrl(services)}${LOADER_PATH}?w=${widgetSimplyId}`;
export const frameUrl = (services: Services, widgetSimplyId: string) => `${publicBaseUrl(services)}${FRAME_PATH}${widgetSimplyId}`;

/** The one line a team pastes into its pages. */
export const embedSnippet = (services: Services, widgetSimplyId: string) => `<script src="${loaderUrl(services, widgetSimplyId)}" async></script>`;
