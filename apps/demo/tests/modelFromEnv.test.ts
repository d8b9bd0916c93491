import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chat } from '@chatwire/server';
import { modelFromEnv } from '../server/routes.ts';
import { collect, user } from '../../../packages/server/tests/fixtures.ts';
import { fixture, startProviderServer, textOf, type ProviderServer } from '../../../packages/server/tests/providers/providerServer.ts';

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

describe('the demo picks its model from the environment', () => {
  it('no keys (or empty ones): the scripted model', () => {
    expect(modelFromEnv({})).toBeUndefined();
    expect(modelFromEnv({ OPENAI_API_KEY: '', ANTHROPIC_API_KEY: ' ' })).toBeUndefined();
  });

  it('OPENAI_API_KEY: an OpenAI-compatible model, gpt-4o-mini by default, at OPENAI_BASE_URL', async () => {
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-a' })).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
    const model = modelFromEnv({
      OPENAI_API_KEY: 'sk-env',
      OPENAI_BASE_URL: `${provider.url}/v1`,
      OPENAI_MODEL: 'local-model',
      ANTHROPIC_API_KEY: 'ignored',
    });
    expect(model).toMatchObject({ provider: 'openai', model: 'local-model' });
    provider.respond({ body: fixture('openai', 'text.sse') });
    const events = await collect(chat({ model: model!, messages: [user('hello', 'u1')] }));
    expect(textOf(events)).toBe('Hello from the test provider.');
    expect(provider.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-env' },
      body: { model: 'local-model' },
    });
  });

  it('ANTHROPIC_API_KEY without an OpenAI key: Anthropic, claude-sonnet-4-5 by default', () => {
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant' })).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_MODEL: 'claude-haiku-4-5' })).toMatchObject({ model: 'claude-haiku-4-5' });
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant' })?.toolSearch).toBeUndefined();
  });

  it("ANTHROPIC_TOOL_SEARCH: Anthropic's own tool search (provider-native deferred loading); another value is refused", () => {
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_SEARCH: 'bm25' })?.toolSearch?.name).toBe('tool_search_tool_bm25');
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_SEARCH: 'regex' })?.toolSearch?.name).toBe('tool_search_tool_regex');
    expect(() => modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_SEARCH: 'yes' })).toThrow(
      "ANTHROPIC_TOOL_SEARCH must be 'bm25' or 'regex' (got 'yes')",
    );
  });

  it('OPENAI_API=responses: the Responses API with the same key, model and base URL; Chat Completions stays the default', async () => {
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_API: 'chat-completions' })).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    const model = modelFromEnv({
      OPENAI_API_KEY: 'sk-env',
      OPENAI_API: 'responses',
      OPENAI_BASE_URL: `${provider.url}/v1`,
      OPENAI_MODEL: 'gpt-5-mini',
    });
    expect(model).toMatchObject({ provider: 'openai', model: 'gpt-5-mini' });
    expect(model?.toolSearch).toBeUndefined();
    provider.respond({ body: fixture('openai-responses', 'text.sse') });
    const events = await collect(chat({ model: model!, messages: [user('hello', 'u1')] }));
    expect(textOf(events)).toBe('Hello from the test provider.');
    expect(provider.requests[0]).toMatchObject({
      path: '/v1/responses',
      headers: { authorization: 'Bearer sk-env' },
      body: { model: 'gpt-5-mini', store: false },
    });
  });

  it("OPENAI_TOOL_SEARCH=hosted|client: OpenAI's tool search on the Responses API; refused on Chat Completions or with another value", () => {
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_API: 'responses', OPENAI_TOOL_SEARCH: 'hosted' })?.toolSearch?.name).toBe(
      'tool_search',
    );
    const client = modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_API: 'responses', OPENAI_TOOL_SEARCH: 'client' });
    expect(client?.toolSearch).toBeUndefined();
    expect(client?.toolChanges?.billing).toMatch(/tool_search_output/);
    expect(() => modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_TOOL_SEARCH: 'hosted' })).toThrow(
      "OPENAI_TOOL_SEARCH must be 'hosted' or 'client', with OPENAI_API=responses",
    );
    expect(() => modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_API: 'responses', OPENAI_TOOL_SEARCH: 'bm25' })).toThrow(
      "OPENAI_TOOL_SEARCH must be 'hosted' or 'client'",
    );
    expect(() => modelFromEnv({ OPENAI_API_KEY: 'sk-a', OPENAI_API: 'assistants' })).toThrow(
      "OPENAI_API must be 'responses' or 'chat-completions' (got 'assistants')",
    );
  });

  it('ANTHROPIC_TOOL_CHANGES=on: cache-preserving tool changes; another value is refused', () => {
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_CHANGES: 'on' })?.toolChanges?.billing).toMatch(/tool_addition/);
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_CHANGES: 'off' })?.toolChanges).toBeUndefined();
    expect(() => modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_TOOL_CHANGES: 'yes' })).toThrow(
      "ANTHROPIC_TOOL_CHANGES must be 'on' or 'off' (got 'yes')",
    );
  });
});
