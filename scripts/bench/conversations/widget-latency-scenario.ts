// conversations-widget-latency: an agent's message reaching a chat widget visitor
// (docs/api/conversations.md "The visitor's side"). One visitor of a widget holds a graphql-ws
// subscription of their conversation with a visitor token (svc_wvt_…), exactly as the widget's
// page does; the agent posts MESSAGES answers through the REST API one after another, an internal
// note between every tenth (the visitor must never receive one). Latency: from the moment the
// agent's request is sent to the visitor's socket delivering the event. Target: p99 < 200 ms.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ApiClient } from '../events/api-client.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import type { ConversationScenario, ConversationsBed } from './conversations-section.ts';

const MESSAGES = 300;
const WARMUP = 20;
const GAP_MS = 10;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function data(api: ApiClient, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await api.request(method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return (answer.body as { data: unknown }).data;
}

async function run(bed: ConversationsBed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const { platform, team } = bed;
  const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.apiKey, sockets: 2 });
  const widget = await data(api, 'POST', '/v1/conversations/widgets', { name: 'Bench widget', allowedOrigins: ['https://www.example.org'] });
  const minted = await data(api, 'POST', `/v1/conversations/widgets/${widget.id}/tokens`, { identity: { visitorId: 'bench-visitor', name: 'Bench visitor' } });
  const visitorApi = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: minted.token, sockets: 1 });
  const started = await visitorApi.request('POST', '/graphql', {
    query: 'mutation($input: StartWidgetConversationInput!) { startWidgetConversation(input: $input) { conversation { conversationSimplyId } } }',
    variables: { input: { content: 'Hello from the bench' } },
  });
  const conversation: string = (started.body as any).data.startWidgetConversation.conversation.conversationSimplyId;

  const arrivals = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  let notes = 0;
  const client: Client = createClient({
    url: `${platform.baseUrl.replace(/^https:/, 'wss:')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { ca: platform.ca });
      }
    },
    connectionParams: { authorization: `Bearer ${minted.token}` },
  });
  client.subscribe<{ widgetVisitorEvents: { type: string; message: { text: string } | null } }>(
    { query: 'subscription($id: String!) { widgetVisitorEvents(conversationSimplyId: $id) { type message { text } } }', variables: { id: conversation } },
    {
      next: (result) => {
        const text = result.data?.widgetVisitorEvents.message?.text;
        if (!text) return;
        if (text.startsWith('NOTE')) notes++;
        arrivals.set(text, performance.now());
        waiting.get(text)?.();
      },
      error: (error) => {
        throw new Error(`the visitor's subscription failed: ${JSON.stringify(error)}`);
      },
      complete: () => {},
    },
  );
  try {
    /** posts `text` as the agent; the ms from sending to the visitor receiving it */
    const answer = async (text: string): Promise<number> => {
      const arrived = new Promise<void>((resolve, reject) => {
        waiting.set(text, resolve);
        setTimeout(() => reject(new Error(`"${text}" did not reach the visitor within 10 s`)), 10_000).unref();
      });
      const sent = performance.now();
      await data(api, 'POST', `/v1/conversations/${conversation}/messages`, { content: text });
      await arrived;
      return arrivals.get(text)! - sent;
    };
    // until the subscription listens, then a few more to warm the paths
    for (let i = 0; ; i++) {
      const text = `probe ${i}`;
      await data(api, 'POST', `/v1/conversations/${conversation}/messages`, { content: text });
      await new Promise((r) => setTimeout(r, 200));
      if (arrivals.has(text)) break;
      if (i > 50) throw new Error('the visitor subscription never received a message');
    }
    for (let i = 0; i < WARMUP; i++) await answer(`warmup ${i}`);
    const latencies: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      if (i % 10 === 0) await data(api, 'POST', `/v1/conversations/${conversation}/messages`, { content: `NOTE ${i}`, channel: 'INTERNAL_NOTE' });
      latencies.push(await answer(`answer ${i}`));
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    const s = summarizeLatencies(latencies);
    summary.widgetLatency = { messages: MESSAGES, ...s, internalNotesReceived: notes };
    lines.push(
      '',
      `conversations-widget-latency: ${MESSAGES} agent answers (REST) to one widget visitor's graphql-ws subscription (visitor token), one at a time, an internal note before every tenth`,
      `  send → visitor: p50 ${ms(s.p50)}, p90 ${ms(s.p90)}, p99 ${ms(s.p99)}, max ${ms(s.max)}; internal notes received by the visitor: ${notes}`,
    );
    targets.push(judged('agent message reaches a widget visitor over graphql-ws, p99 < 200 ms', ms(s.p99), s.p99 < 200));
    targets.push(judged('internal notes received by a widget visitor: none', String(notes), notes === 0));
  } finally {
    await client.dispose();
    api.close();
    visitorApi.close();
  }
}

export const conversationScenario: ConversationScenario = { id: 'conversations-widget-latency', run };
