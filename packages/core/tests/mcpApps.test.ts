import { afterEach, describe, expect, it } from 'vitest';
import type { RunAgentInput } from '@ag-ui/core';
import { MCP_APP_EVENT, isAppCallId, mcpAppCsp, mcpAppsByCall, type ChatClient, type McpAppCallRequest } from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * MCP Apps in the client: the app's data part, the policy of its frame, and the calls an app makes
 * through the chat (`callAppTool`), against a plain AG-UI server scripted event by event.
 */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});
async function serve(script: Script) {
  const server = await startAgUiServer(script);
  stop = server.close;
  return server;
}

const appOf = (toolCallId: string) => ({
  type: 'CUSTOM',
  name: MCP_APP_EVENT,
  value: {
    id: toolCallId,
    data: {
      toolCallId,
      server: 'clock',
      tool: 'get-time',
      resourceUri: 'ui://clock/app.html',
      html: '<!doctype html><p>clock</p>',
      bytes: 27,
      sha256: 'ab'.repeat(32),
      csp: { connectDomains: ['https://api.example.com'] },
    },
  },
});
/** The first run: the model calls `clock__get-time`, whose app arrives with the call. */
const modelRun = (input: RunAgentInput) =>
  runOf(input, [
    ...callOf('call_1', 'clock__get-time', {}),
    appOf('call_1'),
    { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'call_1', content: '{"content":[{"type":"text","text":"12:00"}]}' },
    ...textOf('a2', 'It is noon.'),
  ]);
const appCallOf = (input: RunAgentInput) =>
  (input.forwardedProps as { chatwire?: { appCall?: McpAppCallRequest } } | undefined)?.chatwire?.appCall;
/** The server's answer to an app's call: the call under the id the client chose, then its result. */
const appCallRun = (input: RunAgentInput, content = '{"content":[{"type":"text","text":"12:01"}]}') => {
  const call = appCallOf(input) as McpAppCallRequest;
  return runOf(input, [
    ...callOf(call.toolCallId, 'clock__get-time', call.arguments, 'a3'),
    { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: call.toolCallId, content },
  ]);
};

describe("an MCP App's data part", () => {
  it('is kept on the message without the app declaring it, one per call, and read back by call id', async () => {
    const server = await serve((input) => modelRun(input));
    const client = server.client();
    await client.sendMessage('what time is it?');
    const message = client.getSnapshot().messages.at(-1)!;
    const apps = mcpAppsByCall(message.parts);
    expect([...apps.keys()]).toEqual(['call_1']);
    expect(apps.get('call_1')).toMatchObject({ server: 'clock', tool: 'get-time', resourceUri: 'ui://clock/app.html', bytes: 27 });
  });

  it('is no app when its data is malformed', () => {
    const parts = [
      { type: 'data' as const, name: MCP_APP_EVENT, id: 'x', data: { toolCallId: 'x', server: 'clock' } },
      { type: 'data' as const, name: MCP_APP_EVENT, id: 'y', data: 'not an app' },
    ];
    expect(mcpAppsByCall(parts).size).toBe(0);
  });
});

describe("an MCP App's frame policy (mcpAppCsp)", () => {
  it('is the restrictive default without declarations: no network, no frames, no forms, no plugins', () => {
    const { policy, refused } = mcpAppCsp(undefined);
    expect(policy.split('; ')).toEqual([
      "default-src 'none'",
      "script-src 'unsafe-inline'",
      "style-src 'unsafe-inline'",
      'img-src data: blob:',
      'font-src data:',
      'media-src data: blob:',
      "connect-src 'none'",
      "frame-src 'none'",
      "base-uri 'none'",
      "object-src 'none'",
      "form-action 'none'",
    ]);
    expect(refused).toEqual([]);
  });

  it("refuses '*' and every other way of asking for more than one origin, and keeps the origins that name one", () => {
    const { policy, applied, refused } = mcpAppCsp({
      connectDomains: ['*', 'https://api.example.com', 'https:', 'https://*.com', 'http://evil.example', 'https://a.example; script-src *'],
      resourceDomains: ['https://*.cdn.example.com', "'unsafe-eval'", 'data:'],
      frameDomains: ['http://localhost:5173'],
    });
    expect(applied).toEqual({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['http://localhost:5173'],
    });
    expect(refused.map(({ field, value }) => `${field} ${value}`)).toEqual([
      'connectDomains *',
      'connectDomains https:',
      'connectDomains https://*.com',
      'connectDomains http://evil.example',
      'connectDomains https://a.example; script-src *',
      "resourceDomains 'unsafe-eval'",
      'resourceDomains data:',
    ]);
    expect(refused[0]?.reason).toBe("'*' would allow every origin");
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example.com;");
    expect(policy).not.toMatch(/\*(?!\.cdn)/);
  });

  it('keeps at most 32 origins per field and reports the rest', () => {
    const many = Array.from({ length: 40 }, (_, index) => `https://host${index}.example.com`);
    const { applied, refused } = mcpAppCsp({ connectDomains: many });
    expect(applied.connectDomains).toHaveLength(32);
    expect(refused).toHaveLength(8);
  });
});

describe('callAppTool: a call an app makes through the chat', () => {
  it('sends one run naming the call (appcall_ id, the app’s call, the tool, the arguments) and resolves its settled part', async () => {
    const server = await serve((input, request) => (request === 0 ? modelRun(input) : appCallRun(input)));
    const client = server.client();
    await client.sendMessage('what time is it?');
    const outcome = await client.callAppTool({ via: 'call_1', name: 'get-time', arguments: { zone: 'UTC' } });

    expect(server.inputs).toHaveLength(2);
    const appCall = appCallOf(server.inputs[1]!);
    expect(appCall).toMatchObject({ via: 'call_1', name: 'get-time', arguments: { zone: 'UTC' } });
    expect(isAppCallId(appCall!.toolCallId)).toBe(true);
    // No user message was added for it.
    expect(client.getSnapshot().messages.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.part.toolCallId).toBe(appCall!.toolCallId);
    expect(outcome.part.state).toBe('output-available');
    expect(outcome.part.result?.output).toEqual({ content: [{ type: 'text', text: '12:01' }] });
  });

  it('is refused, sending nothing, for a call that is not in the chat or arguments that are not an object', async () => {
    const server = await serve((input) => modelRun(input));
    const client = server.client();
    await client.sendMessage('what time is it?');
    const unknown = await client.callAppTool({ via: 'call_nope', name: 'get-time' });
    const array = await client.callAppTool({ via: 'call_1', name: 'get-time', arguments: [] as unknown as Record<string, unknown> });
    const proto = await client.callAppTool({ via: 'call_1', name: 'get-time', arguments: JSON.parse('{"__proto__":{"x":1}}') });
    expect([unknown, array, proto].map((outcome) => (outcome.ok ? 'ok' : outcome.error.code))).toEqual([
      'invalid-argument',
      'invalid-argument',
      'invalid-argument',
    ]);
    expect(server.inputs).toHaveLength(1);
  });

  it('waits while a response is in progress, then sends: its request carries that response', async () => {
    const server = await serve((input, request) =>
      request === 0 ? modelRun(input) : request === 1 ? runOf(input, textOf('a4', 'Still noon.')) : appCallRun(input),
    );
    const client = server.client();
    await client.sendMessage('what time is it?');
    const sent = client.sendMessage('and now?');
    const call = client.callAppTool({ via: 'call_1', name: 'get-time' });
    await sent;
    const outcome = await call;
    expect(server.inputs.map((input) => (appCallOf(input) ? 'app call' : input.messages.at(-1)?.role))).toEqual([
      'user',
      'user',
      'app call',
    ]);
    expect(JSON.stringify(server.inputs[2]!.messages)).toContain('Still noon.');
    expect(outcome.ok).toBe(true);
  });

  it('stays unsettled while its approval waits, and resolves once the approved call’s result arrives; the continuation names the call again', async () => {
    const server = await serve((input, request) => {
      if (request === 0) return modelRun(input);
      const call = appCallOf(input) as McpAppCallRequest;
      if (request === 1)
        return runOf(input, callOf(call.toolCallId, 'clock__set-alarm', call.arguments, 'a3'), {
          type: 'interrupt',
          interrupts: [{ id: 'apr-1', reason: 'tool_call', toolCallId: call.toolCallId }],
        });
      return runOf(input, [{ type: 'TOOL_CALL_RESULT', messageId: 't3', toolCallId: call.toolCallId, content: '{"set":true}' }]);
    });
    const client: ChatClient = server.client();
    await client.sendMessage('what time is it?');
    let settled = false;
    const outcome = client.callAppTool({ via: 'call_1', name: 'set-alarm', arguments: { at: '07:00' } }).then((result) => {
      settled = true;
      return result;
    });
    await new Promise<void>((resolve) => {
      const unsubscribe = client.subscribe(() => {
        if (client.getSnapshot().status === 'ready' && server.inputs.length === 2) {
          unsubscribe();
          resolve();
        }
      });
    });
    // The chat waits on the user: another app call is refused rather than answering the approval for them.
    const refused = await client.callAppTool({ via: 'call_1', name: 'get-time' });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('busy');
    expect(settled).toBe(false);

    client.addToolApprovalResponse({ id: 'apr-1', approved: true });
    const result = await outcome;
    expect(result.ok && result.part.result?.output).toEqual({ set: true });
    expect(server.inputs).toHaveLength(3);
    expect(server.inputs[2]?.resume?.[0]).toMatchObject({ interruptId: 'apr-1', status: 'resolved' });
    // The continuation still names the app's call: the server knows the run is the app's and calls no model.
    expect(appCallOf(server.inputs[2]!)?.toolCallId).toBe(appCallOf(server.inputs[1]!)?.toolCallId);
  });
});

describe("setAppContext: an app's model context", () => {
  it('rides every later run after the client’s own context, until it is removed', async () => {
    const server = await serve((input) => runOf(input, textOf('a1', 'ok')));
    const client = server.client({ context: [{ description: 'locale', value: 'fr' }] });
    client.setAppContext('call_1', { description: 'MCP app clock (call_1)', value: '{"selected":"07:00"}' });
    await client.sendMessage('one');
    client.setAppContext('call_1', undefined);
    await client.sendMessage('two');
    expect(server.inputs[0]?.context).toEqual([
      { description: 'locale', value: 'fr' },
      { description: 'MCP app clock (call_1)', value: '{"selected":"07:00"}' },
    ]);
    expect(server.inputs[1]?.context).toEqual([{ description: 'locale', value: 'fr' }]);
  });
});
