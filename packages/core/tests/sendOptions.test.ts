import { describe, expect, it } from 'vitest';
import { ChatClient, fetchServerSentEvents, toolDefinition, type ChatClientOptions } from '@chatwire/core';
import { run, sse, sseResponse } from './fixtures.js';

const answer = sse([run.started, ...run.text('m1', 'ok'), run.finished]);

/** A client over fetch + SSE whose fetch records every request's headers, credentials and body. */
function recordingClient(
  respond: (call: number) => Response,
  options: Partial<ChatClientOptions> = {},
  connection: Parameters<typeof fetchServerSentEvents>[0] = { url: 'http://chat.test' },
) {
  const requests: {
    headers: Record<string, string>;
    credentials: RequestCredentials | undefined;
    body: { forwardedProps: Record<string, unknown>; context: unknown[] };
  }[] = [];
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    requests.push({
      headers: init?.headers as Record<string, string>,
      credentials: init?.credentials,
      body: JSON.parse(String(init?.body)),
    });
    return respond(requests.length - 1);
  }) as typeof globalThis.fetch;
  const base = typeof connection === 'string' ? { url: connection } : connection;
  const client = new ChatClient({ connection: fetchServerSentEvents({ ...base, fetch }), onWarning: () => {}, ...options });
  return { client, requests };
}

describe('per-send options: sendMessage(message, { body, headers, context })', () => {
  it('apply to that send’s request, over the connection’s own values, and not to the next message', async () => {
    const { client, requests } = recordingClient(
      () => sseResponse(answer),
      { context: [{ description: 'locale', value: 'fr' }] },
      {
        url: 'http://chat.test',
        headers: { authorization: 'Bearer t', 'x-model': 'small' },
        body: { model: 'small', tenant: 'acme' },
      },
    );
    await client.sendMessage('one', {
      body: { model: 'large' },
      headers: { 'x-model': 'large', 'x-trace': 't1' },
      context: [{ description: 'page', value: '/cart' }],
    });
    await client.sendMessage('two');

    const [first, second] = requests;
    expect(first!.body.forwardedProps).toEqual({ model: 'large', tenant: 'acme' });
    expect(first!.headers).toMatchObject({ authorization: 'Bearer t', 'x-model': 'large', 'x-trace': 't1' });
    expect(first!.body.context).toEqual([
      { description: 'locale', value: 'fr' },
      { description: 'page', value: '/cart' },
    ]);
    expect(second!.body.forwardedProps).toEqual({ model: 'small', tenant: 'acme' });
    expect(second!.headers['x-model']).toBe('small');
    expect(second!.headers['x-trace']).toBeUndefined();
    expect(second!.body.context).toEqual([{ description: 'locale', value: 'fr' }]);
  });

  it('cover the automatic continuation of the same turn (a browser tool’s result)', async () => {
    const setTheme = toolDefinition({ name: 'setTheme', description: 'Theme.', inputSchema: { type: 'object' } }).client(async () => ({
      applied: true,
    }));
    const toolTurn = sse([
      run.started,
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'setTheme', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      run.finished,
    ]);
    const { client, requests } = recordingClient((call) => sseResponse(call === 0 ? toolTurn : answer), { tools: [setTheme] });
    await client.sendMessage('dark please', { body: { model: 'large' }, headers: { 'x-trace': 't1' } });
    expect(requests).toHaveLength(2);
    expect(requests.map((request) => [request.body.forwardedProps['model'], request.headers['x-trace']])).toEqual([
      ['large', 't1'],
      ['large', 't1'],
    ]);
  });

  it('regenerate(options) takes them too', async () => {
    const { client, requests } = recordingClient(() => sseResponse(answer));
    await client.sendMessage('one');
    await client.regenerate({ body: { temperature: 0 } });
    expect(requests.map((request) => request.body.forwardedProps)).toEqual([{}, { temperature: 0 }]);
  });

  it('reach a custom connection: body in the input, headers as a run option', async () => {
    const seen: { forwardedProps: unknown; headers: unknown }[] = [];
    const client = new ChatClient({
      connection: {
        async *run(input, options) {
          seen.push({ forwardedProps: input.forwardedProps, headers: options.headers });
          yield* [run.started, ...run.text('m1', 'ok'), run.finished];
        },
      },
    });
    await client.sendMessage('one', { body: { a: 1 }, headers: { 'x-a': '1' } });
    await client.sendMessage('two');
    expect(seen).toEqual([
      { forwardedProps: { a: 1 }, headers: { 'x-a': '1' } },
      { forwardedProps: {}, headers: undefined },
    ]);
  });
});
