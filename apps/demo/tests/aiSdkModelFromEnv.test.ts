import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chat } from '@chatwire/server';
import { aiSdkModelFromEnv, ProviderSetupError } from '../server/aiSdkModelFromEnv.ts';
import { collect, user } from '../../../packages/server/tests/fixtures.ts';
import { startProviderServer, textOf, type ProviderServer } from '../../../packages/server/tests/providers/providerServer.ts';
import { geminiStream, mistralStream } from '../../../packages/server/tests/providers/aiSdkStandIns.ts';
import { loadProviderPackage } from '../../../packages/server/tests/aiSdk/providerPackages.ts';

/**
 * `CHATWIRE_PROVIDER`: the demo on an AI SDK provider package, installed only when asked for. The demo
 * does not depend on any: the missing-package error is the real one (`@ai-sdk/groq` is installed nowhere
 * in this repository), and the working cases load the packages the server's tests install.
 */
let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

describe('CHATWIRE_PROVIDER picks an AI SDK provider package', () => {
  it('unset, or CHATWIRE_MODEL=scripted: no provider model', async () => {
    expect(await aiSdkModelFromEnv({})).toBeUndefined();
    expect(await aiSdkModelFromEnv({ CHATWIRE_PROVIDER: 'google', CHATWIRE_MODEL: 'scripted' })).toBeUndefined();
  });

  it('google: @ai-sdk/google with the key it reads, gemini-2.5-flash by default, at CHATWIRE_PROVIDER_BASE_URL', async () => {
    const env = {
      CHATWIRE_PROVIDER: 'google',
      GOOGLE_GENERATIVE_AI_API_KEY: 'gk-demo',
      CHATWIRE_PROVIDER_BASE_URL: `${provider.url}/v1beta`,
    };
    const model = await aiSdkModelFromEnv(env, loadProviderPackage);
    expect(model).toMatchObject({ provider: 'google', model: 'gemini-2.5-flash' });
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'gk-demo');
    try {
      provider.respond({ body: geminiStream([[{ text: 'Hello from the stand-in.' }]], { promptTokenCount: 10, candidatesTokenCount: 5 }) });
      const events = await collect(chat({ model: model!, messages: [user('hello', 'u1')] }));
      expect(textOf(events)).toBe('Hello from the stand-in.');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(provider.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      headers: { 'x-goog-api-key': 'gk-demo' },
    });
    const other = await aiSdkModelFromEnv({ ...env, CHATWIRE_PROVIDER_MODEL: 'gemini-2.5-pro' }, loadProviderPackage);
    expect(other?.model).toBe('gemini-2.5-pro');
  });

  it('mistral: @ai-sdk/mistral, mistral-large-latest by default', async () => {
    vi.stubEnv('MISTRAL_API_KEY', 'mk-demo');
    try {
      const model = await aiSdkModelFromEnv(
        { CHATWIRE_PROVIDER: 'mistral', MISTRAL_API_KEY: 'mk-demo', CHATWIRE_PROVIDER_BASE_URL: `${provider.url}/v1` },
        loadProviderPackage,
      );
      expect(model).toMatchObject({ provider: 'mistral', model: 'mistral-large-latest' });
      provider.respond({ body: mistralStream([{ content: 'Bonjour.' }], { prompt_tokens: 10, completion_tokens: 2 }) });
      expect(textOf(await collect(chat({ model: model!, messages: [user('hello', 'u1')] })))).toBe('Bonjour.');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(provider.requests[0]).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer mk-demo' } });
  });

  it('an unknown provider, or a missing key, is refused before any package loads, saying what is needed', async () => {
    const load = vi.fn(loadProviderPackage);
    await expect(aiSdkModelFromEnv({ CHATWIRE_PROVIDER: 'gemini' }, load)).rejects.toThrow(
      "CHATWIRE_PROVIDER must be one of google, mistral, groq, bedrock (got 'gemini').",
    );
    await expect(aiSdkModelFromEnv({ CHATWIRE_PROVIDER: 'google' }, load)).rejects.toThrow(
      'CHATWIRE_PROVIDER=google needs GOOGLE_GENERATIVE_AI_API_KEY in the environment.',
    );
    await expect(aiSdkModelFromEnv({ CHATWIRE_PROVIDER: 'bedrock', AWS_REGION: 'us-east-1' }, load)).rejects.toThrow(
      'CHATWIRE_PROVIDER=bedrock needs AWS_REGION + AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, or AWS_REGION + AWS_BEARER_TOKEN_BEDROCK in the environment.',
    );
    expect(load).not.toHaveBeenCalled();
  });

  it('a provider package that is not installed: the error says which and how to install it', async () => {
    const error = await aiSdkModelFromEnv({ CHATWIRE_PROVIDER: 'groq', GROQ_API_KEY: 'gsk-demo' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderSetupError);
    expect((error as Error).message).toBe(
      'CHATWIRE_PROVIDER=groq needs the provider package @ai-sdk/groq, which is not installed: npm i -w @chatwire/demo @ai-sdk/groq  (on Node 20: npm i -w @chatwire/demo @ai-sdk/groq@3)',
    );
  });
});

/** Runs `npm start`'s server (dev.ts) with this environment until it exits; its exit code and stderr. */
function startDemo(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dev = fileURLToPath(new URL('../server/dev.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', dev], {
      env: { PATH: process.env['PATH'] ?? '', CHATWIRE_MCP: 'off', PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('npm start with CHATWIRE_PROVIDER', () => {
  // Two processes that load the demo server's sources with tsx (about 7 s each on the shared 2-core machine): run side by side.
  it('stops at startup with a clear message when the key is missing, or the package is not installed', { timeout: 90_000 }, async () => {
    const [noKey, noPackage] = await Promise.all([
      startDemo({ CHATWIRE_PROVIDER: 'mistral' }),
      startDemo({ CHATWIRE_PROVIDER: 'groq', GROQ_API_KEY: 'gsk-demo' }),
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('The demo cannot start: CHATWIRE_PROVIDER=mistral needs MISTRAL_API_KEY in the environment.');
    expect(noPackage.code).toBe(1);
    expect(noPackage.stderr).toContain(
      'The demo cannot start: CHATWIRE_PROVIDER=groq needs the provider package @ai-sdk/groq, which is not installed',
    );
  });
});
