import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel, openaiCompatible, redactSecrets, type ErrorReport } from '@chatwire/server';
import { collect, user } from '../fixtures.js';
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
    expect(redactSecrets('plain text, an e-mail a@b.c, https://example.com/path?q=1')).toBe(
      'plain text, an e-mail a@b.c, https://example.com/path?q=1',
    );
    // Linear on hostile input.
    const started = performance.now();
    redactSecrets(`${'a://'.repeat(50_000)}${'?key='.repeat(50_000)}${'@'.repeat(100_000)}`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
