import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { chat, createChatHandler, createScriptedModel, openaiCompatible, type ErrorReport } from '@chatwire/server';
import { redactSecrets } from '@chatwire/server/extension';
import { collect, runInput, user } from '../fixtures.js';
import { SECRET_SAMPLES, chatOverHttp, recordingModel } from './secretSamples.js';
import { closedPortUrl, startProviderServer } from '../providers/providerServer.js';

describe('secrets never reach the browser', () => {
  it('a tool exception with a connection string: the stream has a safe message, onError the redacted details', async () => {
    const query = toolDefinition({ name: 'query', description: 'Query the database.', inputSchema: z.object({}) }).server(async () => {
      throw new Error('connect ECONNREFUSED postgres://admin:pw@10.0.0.5:5432/orders');
    });
    const reports: ErrorReport[] = [];
    const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls: [{ name: 'query', args: {} }] } }] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [query], onError: (report) => reports.push(report) }));
    const stream = JSON.stringify(events);
    for (const secret of ['admin', ':pw@', '10.0.0.5', 'postgres://']) expect(stream).not.toContain(secret);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      kind: 'tool',
      toolName: 'query',
      message: 'connect ECONNREFUSED postgres://***@10.0.0.5:5432/orders',
    });
    expect(stream).toContain(reports[0]!.ref);
  });

  it("a provider's error body (an echoed key, a traceback) and its address stay on the server", async () => {
    const provider = await startProviderServer();
    try {
      provider.respond({
        status: 500,
        body: JSON.stringify({ error: { message: 'Traceback: key sk-live-123 rejected at gateway 10.1.2.3:8080' } }),
      });
      const reports: ErrorReport[] = [];
      const model = openaiCompatible({ baseURL: `${provider.url}/v1`, apiKey: 'sk-live-123', model: 'm' });
      const events = await collect(chat({ model, messages: [user('hi')], onError: (report) => reports.push(report) }));
      const stream = JSON.stringify(events);
      for (const secret of ['sk-live-123', 'Traceback', '10.1.2.3', new URL(provider.url).host]) expect(stream).not.toContain(secret);
      expect(events.at(-1)).toMatchObject({
        type: 'RUN_ERROR',
        message: expect.stringMatching(/^The model provider failed \(status 500\) \(ref err_/),
      });
      expect(reports[0]?.message).toContain('Traceback');
    } finally {
      await provider.close();
    }
  });

  it('credentials and key query values in a provider URL are redacted even in the server-side report', async () => {
    const url = new URL(await closedPortUrl());
    const reports: ErrorReport[] = [];
    const model = openaiCompatible({ baseURL: `http://user:hunter2@${url.host}/v1?api-key=k-secret-1`, apiKey: 'sk-x', model: 'm' });
    const events = await collect(chat({ model, messages: [user('hi')], onError: (report) => reports.push(report) }));
    expect(JSON.stringify(events)).not.toMatch(/hunter2|k-secret-1/);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.message).not.toMatch(/hunter2|k-secret-1/);
  });

  it('redactSecrets scrubs URL credentials and key-like query values, and leaves the rest', () => {
    expect(redactSecrets('postgres://admin:pw@db:5432/x and https://h/p?api-key=abc&x=1#f')).toBe(
      'postgres://***@db:5432/x and https://h/p?api-key=***&x=1#f',
    );
    expect(redactSecrets('redis://:pass@r:6379 https://u@h/?key=K&token=T&access_token=A&sig=S')).toBe(
      'redis://***@r:6379 https://***@h/?key=***&token=***&access_token=***&sig=***',
    );
    // Ordinary text that looks a little like a credential stays as it is.
    const ordinary = [
      'plain text, an e-mail a@b.c, https://example.com/path?q=1',
      'invalid token: expired; max_tokens=5 exceeded; the password is wrong; password_hint=pet',
      'pip install sk-learn failed; task-force; the bearer of news; Basic setup; ghp_short',
      '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgI\n-----END CERTIFICATE-----',
    ];
    for (const text of ordinary) expect(redactSecrets(text)).toBe(text);
  });

  it('redacts each pattern and keeps the text around it', () => {
    expect(redactSecrets('a token=sk-live-abcdef b')).toBe('a token=*** b');
    expect(redactSecrets('{"api_key": "k-1", \'password\': \'p w\'}')).toBe('{"api_key": "***", \'password\': \'***\'}');
    expect(redactSecrets('Authorization: Bearer abc.def\nnext')).toBe('Authorization: Bearer ***\nnext');
    expect(redactSecrets('{"authorization":"Basic dXNlcjpwYXNz","x":1}')).toBe('{"authorization":"Basic ***","x":1}');
    expect(redactSecrets('keys: AKIAIOSFODNN7EXAMPLE, ghp_abcdefghij.')).toBe('keys: ***, ***.');
    expect(redactSecrets('pem\n-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\nend')).toBe('pem\n***\nend');
    // A private key block cut before its end: the rest of the text goes.
    expect(redactSecrets('pem -----BEGIN EC PRIVATE KEY-----\nMIIE')).toBe('pem ***');
  });

  // Hostile texts built against each pattern's scanning: a backtracking pattern would take minutes on
  // these (quadratic in 10^5-10^6 characters). Each returns, and redacts exactly the real secrets planted in it.
  const planted = ' token=PLANTED1 sk-PLANTED22222 ';
  const hostile: Record<string, string> = {
    'URL authorities': `${'a://'.repeat(100_000)}${planted}${'@'.repeat(100_000)}`,
    'query keys': `${'&key'.repeat(100_000)}${planted}${'?'.repeat(100_000)}`,
    'header names without a value': `${'authorization '.repeat(40_000)}${planted}${'cookie'.repeat(40_000)}`,
    'bearer without a token': `${'Bearer '.repeat(60_000)}${planted}${'bearer\t'.repeat(60_000)}`,
    'secret names without =': `${'x_token'.repeat(60_000)}${planted}${'"password'.repeat(60_000)}${'a'.repeat(200_000)}`,
    'a run of secret names': `${'password_'.repeat(60_000)}${planted}${' = '.repeat(60_000)}`,
    'key prefixes without a key': `${'sk-'.repeat(100_000)}${planted}${'AKIA'.repeat(50_000)} ${'eyJ'.repeat(100_000)}`,
    'JSON Web Token segments': `${'eyJaaaaaaaaa.'.repeat(40_000)}${planted}eyJ${'a'.repeat(300_000)}`,
    'PEM headers': `${'-----BEGIN '.repeat(50_000)}${planted}${'-----END '.repeat(50_000)}`,
  };
  it.each(Object.keys(hostile))('returns on a large hostile text (%s), redacting what was planted', (name) => {
    const text = hostile[name]!;
    const out = redactSecrets(text);
    expect(out).not.toContain('PLANTED');
    expect(out.split(' token=*** *** ').length - 1).toBe(1);
  });
});

describe('every tool error reaches the model and the browser redacted', () => {
  const leak = (text: string) =>
    toolDefinition({ name: 'leak', description: 'Calls a service that fails.', inputSchema: z.object({}) }).server(async () => {
      // An error the tool chose to show (expose: true): its text reaches the model, redacted.
      throw Object.assign(new Error(text), { expose: true });
    });

  it.each(SECRET_SAMPLES.map((sample) => [sample.pattern, sample] as const))('a server tool that throws: %s', async (_pattern, sample) => {
    const { model, requests } = recordingModel({
      rules: [{ name: 'leak', when: 'leak', reply: { toolCalls: [{ name: 'leak', args: {} }] } }],
    });
    const { sse, events, modelView } = await chatOverHttp({ model, tools: [leak(sample.text)], secret: 'test-secret' }, requests, 'leak');
    const result = events.find((event) => event.type === 'TOOL_CALL_RESULT');
    expect(result?.content).toContain("Tool 'leak' failed:");
    expect(requests).toHaveLength(2);
    for (const view of [sse, modelView]) {
      expect(view).toContain("Tool 'leak' failed:");
      expect(view).toContain('***');
      for (const secret of sample.secrets) expect(view).not.toContain(secret);
    }
  });
});

describe("a browser tool's failure reaches the model redacted", () => {
  const showBanner = toolDefinition({ name: 'showBanner', description: 'Shows a banner in the page.', inputSchema: z.object({}) });

  it.each(SECRET_SAMPLES.map((sample) => [sample.pattern, sample] as const))('%s', async (_pattern, sample) => {
    const { model, requests } = recordingModel();
    const handler = createChatHandler({ model, tools: [showBanner], secret: 'test-secret' });
    // The page ran showBanner, which failed with a credential in its text (as the browser runtime reports it).
    const history = [
      user('show a banner', 'u1'),
      { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'showBanner', arguments: '{}' } }] },
      { id: 'r1', role: 'tool', toolCallId: 'c1', content: JSON.stringify({ error: sample.text }), error: sample.text },
    ];
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput(history)),
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    expect(requests).toHaveLength(1);
    const modelView = JSON.stringify(requests[0]?.messages);
    expect(modelView).toContain('***');
    for (const secret of sample.secrets) expect(modelView).not.toContain(secret);
  });
});
