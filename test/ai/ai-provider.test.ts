// The AI layer against a real (local) OpenAI-compatible server: what it sends, what it makes of
// answers, streamed or not, and how it fails: retried only when trying again can help, within one
// deadline, cancellable, and never with the provider's own words in what a user sees.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AiError, aiSettingsOf, TokenBudget, type AiSettings, type AiUsageEvent, type ChatRequest } from '../../src/app/ai/index.ts';
import { AiProvider } from '../../src/app/ai/ai-provider.ts';
import { backoffDelayMs } from '../../src/app/ai/retry-delay.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const TEAM = 42n;
const FIND_RECORDS = {
  name: 'find_records',
  description: 'Finds records of a collection',
  inputSchema: { type: 'object', properties: { collection: { type: 'string' }, query: { type: 'string' } }, required: ['collection'] },
};

let model: ModelServer;
let usage: AiUsageEvent[];

beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());
beforeEach(() => {
  model.reset();
  usage = [];
});

function settings(overrides: Partial<AiSettings> = {}): AiSettings {
  return { baseUrl: model.baseUrl, apiKey: 'test-key', model: 'test-model', timeoutMs: 2_000, maxRetries: 2, runTokenBudget: 1_000, retryBaseDelayMs: 5, ...overrides };
}

function provider(overrides: Partial<AiSettings> = {}) {
  return new AiProvider(settings(overrides), { onUsage: (event) => void usage.push(event) });
}

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({ messages: [{ role: 'user', content: 'Hello?' }], teamId: TEAM, feature: 'test', ...overrides });

async function failureOf(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

describe('settings', () => {
  it('configure a model only with both a base URL and a model', () => {
    const env = { AI_TIMEOUT_MS: 60_000, AI_MAX_RETRIES: 2, AI_RUN_TOKEN_BUDGET: 50_000 };
    expect(aiSettingsOf({ ...env, AI_BASE_URL: 'http://127.0.0.1:8080/v1' })).toBeNull();
    expect(aiSettingsOf({ ...env, AI_MODEL: 'llama' })).toBeNull();
    expect(aiSettingsOf({ ...env, AI_BASE_URL: 'http://127.0.0.1:8080/v1/', AI_MODEL: 'llama' })).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama', apiKey: undefined, timeoutMs: 60_000 });
  });
});

describe('AiProvider.complete', () => {
  it('returns a text answer and reports its usage once', async () => {
    model.reply({ text: 'Hi, how can I help?', usage: { promptTokens: 12, completionTokens: 6 } });
    const step = await provider().complete(ask({ system: 'Be brief.' }));
    expect(step).toEqual({ text: 'Hi, how can I help?', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 6, totalTokens: 18 } });
    expect(usage).toEqual([{ teamId: TEAM, feature: 'test', model: 'test-model', inputTokens: 12, outputTokens: 6, totalTokens: 18, at: expect.any(Date) }]);
    const [request] = model.requests;
    expect(request).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer test-key' });
    expect(request!.body).toMatchObject({ model: 'test-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello?' }] });
    expect(request!.body.stream).toBeFalsy();
  });

  it('streams text as deltas and ends with the same step, usage included', async () => {
    model.reply({ text: 'one two three', usage: { promptTokens: 3, completionTokens: 4 } });
    const deltas: string[] = [];
    const step = await provider().complete(ask({ stream: true, onTextDelta: (text) => deltas.push(text) }));
    expect(deltas).toEqual(['one ', 'two ', 'three']);
    expect(step).toEqual({ text: 'one two three', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } });
    expect(model.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(usage).toHaveLength(1);
  });

  it.each([false, true])('returns tool calls with parsed input for the caller to run (streamed: %s)', async (stream) => {
    model.reply({ toolCalls: [{ id: 'call_a', name: 'find_records', arguments: { collection: 'people', query: 'Ada' } }] });
    const step = await provider().complete(ask({ tools: [FIND_RECORDS], stream }));
    expect(step.toolCalls).toEqual([{ id: 'call_a', name: 'find_records', input: { collection: 'people', query: 'Ada' } }]);
    expect(step.finishReason).toBe('tool-calls');
  });

  it('sends the tool declarations and the whole conversation, tool calls and their results included', async () => {
    model.reply({ text: 'Ada is in people.' });
    await provider().complete(ask({
      system: 'You help a team.',
      tools: [FIND_RECORDS],
      messages: [
        { role: 'user', content: 'Is Ada there?' },
        { role: 'system', content: 'The user may only read.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'find_records', input: { collection: 'people' } }] },
        { role: 'tool', toolCallId: 'call_1', name: 'find_records', output: { records: [{ name: 'Ada' }] } },
        { role: 'assistant', content: 'Checking again.', toolCalls: [{ id: 'call_2', name: 'find_records', input: { collection: 'people', query: 'x' } }] },
        { role: 'tool', toolCallId: 'call_2', name: 'find_records', output: { error: 'no such collection' }, isError: true },
      ],
    }));
    const { body } = model.requests[0]!;
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'find_records', description: 'Finds records of a collection', parameters: FIND_RECORDS.inputSchema } }]);
    expect(body.messages).toMatchObject([
      { role: 'system', content: 'You help a team.' },
      { role: 'user', content: 'Is Ada there?' },
      { role: 'system', content: 'The user may only read.' },
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'find_records', arguments: '{"collection":"people"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"records":[{"name":"Ada"}]}' },
      { role: 'assistant', content: 'Checking again.', tool_calls: [{ id: 'call_2' }] },
      { role: 'tool', tool_call_id: 'call_2', content: '{"error":"no such collection"}' },
    ]);
  });

  it.each([false, true])('returns calls of undeclared tools and unparsable arguments flagged, not thrown (streamed: %s)', async (stream) => {
    model.reply({ toolCalls: [{ id: 'c1', name: 'drop_database', arguments: {} }, { id: 'c2', name: 'find_records', arguments: '{"collection": ' }] });
    const step = await provider().complete(ask({ tools: [FIND_RECORDS], stream }));
    expect(step.toolCalls).toEqual([
      { id: 'c1', name: 'drop_database', input: {}, invalid: 'unknown_tool' },
      { id: 'c2', name: 'find_records', input: '{"collection": ', invalid: 'invalid_input' },
    ]);
  });

  it('retries a 500 and returns the answer that follows', async () => {
    model.reply({ error: { status: 500, message: 'internal' } }, { text: 'recovered' });
    const step = await provider().complete(ask());
    expect(step.text).toBe('recovered');
    expect(model.requests).toHaveLength(2);
    expect(usage).toHaveLength(1);
  });

  it('does not retry a 400: the request would fail the same way', async () => {
    model.reply({ error: { status: 400, message: 'Your prompt "Hello?" is invalid', code: 'bad_prompt' } }, { text: 'never' });
    const error = await failureOf(provider().complete(ask({ system: 'Internal instructions 7f3a' })));
    expect(error).toMatchObject({ kind: 'provider_error', status: 400, attempts: 1 });
    expect(error.userVisibleSummary).not.toMatch(/prompt|Hello|invalid/i);
    expect(model.requests).toHaveLength(1);
    expect(model.pending()).toBe(1);
    // the log fields keep the provider's reason but not the request, which the SDK's error carries whole
    expect(error.logFields()).toMatchObject({ kind: 'provider_error', status: 400, cause: { message: expect.stringContaining('is invalid') } });
    expect(JSON.stringify(error.logFields())).not.toContain('7f3a');
    expect(JSON.stringify(error.cause)).toContain('7f3a');
  });

  it('retries a 429 up to AI_MAX_RETRIES, then gives up as rate_limited without the provider message', async () => {
    const throttled = { error: { status: 429, message: 'Rate limit reached for org-secret-123 on tokens', type: 'tokens', code: 'rate_limit_exceeded' } };
    model.reply(throttled, throttled, throttled);
    const error = await failureOf(provider({ maxRetries: 2 }).complete(ask()));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, attempts: 3 });
    expect(error.userVisibleSummary).not.toContain('org-secret-123');
    expect(error.message).not.toContain('org-secret-123');
    expect(model.requests).toHaveLength(3);
    expect(usage).toEqual([]);
  });

  it('honours Retry-After, and gives up at once when it would pass the deadline', async () => {
    model.reply({ error: { status: 429, message: 'later', headers: { 'retry-after': '5' } } }, { text: 'too late' });
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 1_000 }).complete(ask()));
    expect(error.kind).toBe('rate_limited');
    expect(Date.now() - started).toBeLessThan(500);
    expect(model.requests).toHaveLength(1);
  });

  it('ends a step that takes longer than AI_TIMEOUT_MS as a timeout, retries and waits included', async () => {
    model.reply({ hang: true });
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 300 }).complete(ask()));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    model.reply({ text: 'slow', delayMs: 400 });
    expect((await failureOf(provider({ timeoutMs: 200 }).complete(ask({ stream: true })))).kind).toBe('timeout');
  });

  it.each([false, true])("stops when the caller aborts, and closes the model's request (streamed: %s)", async (stream) => {
    model.reply({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failureOf(provider().complete(ask({ signal: controller.signal, stream })));
    expect(error.kind).toBe('cancelled');
    await expect.poll(() => model.requests[0]?.abortedByClient).toBe(true);
  });

  it('holds every attempt and every wait to one deadline per step', async () => {
    const failing = { error: { status: 503, message: 'overloaded' }, delayMs: 150 };
    model.reply(failing, failing, failing, failing, failing, failing);
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 400, maxRetries: 5 }).complete(ask()));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(model.requests).toHaveLength(3);
  });

  it('refuses at once when the caller has already aborted', async () => {
    const error = await failureOf(provider().complete(ask({ signal: AbortSignal.abort() })));
    expect(error.kind).toBe('cancelled');
    expect(model.requests).toHaveLength(0);
  });

  it('reports an unreachable model as unavailable, after its retries', async () => {
    const gone = await startModelServer();
    await gone.close();
    const error = await failureOf(new AiProvider(settings({ baseUrl: gone.baseUrl, maxRetries: 1 })).complete(ask()));
    expect(error).toMatchObject({ kind: 'unavailable', attempts: 2 });
  });

  it('retries a connection dropped before the answer', async () => {
    model.reply({ cutAfter: 0 }, { text: 'second try' });
    expect((await provider().complete(ask())).text).toBe('second try');
    expect(model.requests).toHaveLength(2);
  });

  it('does not retry a stream that broke after its text reached the caller: it would be sent twice', async () => {
    model.reply({ text: 'partial answer here', cutAfter: 2, chunkDelayMs: 30 }, { text: 'never' });
    const deltas: string[] = [];
    const error = await failureOf(provider().complete(ask({ stream: true, onTextDelta: (text) => deltas.push(text) })));
    expect(error.kind).toBe('unavailable');
    expect(deltas).toEqual(['partial ']);
    expect(model.requests).toHaveLength(1);
    expect(usage).toEqual([]);
  });

  it.each([false, true])('reports an answer it cannot read as bad_response, without retrying (streamed: %s)', async (stream) => {
    model.reply({ raw: { body: stream ? 'data: {"choices": [oops\n\n' : '<html>gateway says hi</html>' } }, { text: 'never' });
    const error = await failureOf(provider().complete(ask({ stream })));
    expect(error.kind).toBe('bad_response');
    expect(error.userVisibleSummary).not.toContain('gateway');
    expect(model.requests).toHaveLength(1);
  });

  it("passes an error of the caller's own callback through unchanged", async () => {
    model.reply({ text: 'a b' });
    const mine = new Error('my socket closed');
    await expect(provider().complete(ask({ stream: true, onTextDelta: () => { throw mine; } }))).rejects.toBe(mine);
  });
});

describe('token budget', () => {
  it('counts what remains and refuses once it is spent', () => {
    const budget = new TokenBudget(100);
    budget.charge({ totalTokens: 60 });
    expect(budget.remaining).toBe(40);
    budget.assertAvailable();
    budget.charge({ totalTokens: 70 });
    expect(budget.remaining).toBe(0);
    expect(() => budget.assertAvailable()).toThrow(expect.objectContaining({ kind: 'budget_exceeded' }));
  });

  it("is charged per step, caps the step's output, and stops the run before a step it cannot pay", async () => {
    const ai = provider({ runTokenBudget: 50 });
    const budget = ai.runBudget();
    model.reply({ text: 'first', usage: { promptTokens: 20, completionTokens: 10 } }, { text: 'second', usage: { promptTokens: 30, completionTokens: 5 } });
    await ai.complete(ask({ budget, maxOutputTokens: 100 }));
    expect(budget.remaining).toBe(20);
    await ai.complete(ask({ budget, maxOutputTokens: 100 }));
    expect(model.requests.map((r) => r.body.max_tokens)).toEqual([50, 20]);
    const error = await failureOf(ai.complete(ask({ budget })));
    expect(error.kind).toBe('budget_exceeded');
    expect(model.requests).toHaveLength(2);
  });
});

describe('retry waits', () => {
  it('about double each time, with jitter in the upper half', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs(n, 100, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => backoffDelayMs(n, 100, () => 1))).toEqual([100, 200, 400]);
  });
});
