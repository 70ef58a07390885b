// AI assistance's part of the conversations test kit (conversations.kit.ts spreads it in): the
// races of its routes and the bodies of its id routes. The route world's model is a closed port,
// so the model steps fail (424) and a text already in the target language comes back as it is
// (200): either way nothing is stored and the thread is unchanged.
import { expectSame } from '../concurrency/race-checks.ts';
import { N, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, type BodyFor } from '../support/area-kit.ts';

const INBOX_ONE = '/v1/conversations/inbox/{conversationSimplyId}';
const ANSWERS = ['200', '424 AI_MODEL_ERROR', '403 AI_FEATURE_UNAVAILABLE'];

async function withVisitorMessage(kit: RaceKit): Promise<{ id: string; messageId: string }> {
  const id = (await kit.admin('POST', '/v1/conversations', { subject: fresh('ai race') })).id as string;
  const message = await kit.admin('POST', `/v1/conversations/${id}/messages`, { content: 'Hallo, wann kommt meine Bestellung an?', authorType: 'END_USER' });
  return { id, messageId: message.id };
}

/** the races' requests changed nothing: the thread holds the visitor's message only, and nothing was answered */
async function expectUntouched(kit: RaceKit, id: string, xs: Exchange[]) {
  const messages = (await kit.admin('GET', `/v1/conversations/${id}/messages`)) as any[];
  expectSame(kit, 'messages of the thread', messages.map((m) => m.authorType), ['END_USER'], xs);
}

export const aiRaces: RaceTable = {
  [`POST ${INBOX_ONE}/suggest-replies`]: [
    {
      what: 'N suggestion requests at once: each answered alike, nothing stored or sent',
      async run(kit) {
        const { id } = await withVisitorMessage(kit);
        const xs = await kit.race(Array.from({ length: N }, () => ({ method: 'POST', path: `/v1/conversations/inbox/${id}/suggest-replies`, body: { count: 1 } })));
        kit.expectAnswers(xs, ANSWERS);
        await expectUntouched(kit, id, xs);
      },
    },
  ],
  [`POST ${INBOX_ONE}/messages/{messageSimplyId}/translate`]: [
    {
      what: 'N translations of one message into different languages: nothing stored',
      async run(kit) {
        const { id, messageId } = await withVisitorMessage(kit);
        const languages = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'ja'];
        const xs = await kit.race(languages.slice(0, N).map((targetLanguage) => ({ method: 'POST', path: `/v1/conversations/inbox/${id}/messages/${messageId}/translate`, body: { targetLanguage } })));
        kit.expectAnswers(xs, ANSWERS);
        await expectUntouched(kit, id, xs);
      },
    },
  ],
  [`POST ${INBOX_ONE}/translate-outgoing`]: [
    {
      what: 'N drafts translated at once: nothing stored or sent',
      async run(kit) {
        const { id } = await withVisitorMessage(kit);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: `/v1/conversations/inbox/${id}/translate-outgoing`, body: { content: `Draft number ${i}`, targetLanguage: 'fr' } })));
        kit.expectAnswers(xs, ANSWERS);
        await expectUntouched(kit, id, xs);
      },
    },
  ],
};

export const aiIdRouteBodies: Record<string, BodyFor> = {
  [`POST ${INBOX_ONE}/suggest-replies`]: () => ({ count: 1 }),
  [`POST ${INBOX_ONE}/messages/{messageSimplyId}/translate`]: () => ({ targetLanguage: 'en' }),
  [`POST ${INBOX_ONE}/translate-outgoing`]: () => ({ content: fresh('draft'), targetLanguage: 'de' }),
};

/** the world's path parameter of the translate route: {messageSimplyId} names outgoing messages and assistant replies elsewhere */
export const aiWorldIds = (messageSimplyId: string) => ({ [`POST ${INBOX_ONE}/messages/{messageSimplyId}/translate {messageSimplyId}`]: messageSimplyId });
