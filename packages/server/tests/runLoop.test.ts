import { describe, expect, it, vi } from 'vitest';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Event, Message } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition, type ToolContext } from '@chatwire/core';
import { toWireTool } from '@chatwire/core/shared';
import { chat, createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { applyEvents, collect, interruptsOf, readEvents, runInput, user } from './fixtures.js';

/** A scripted model that answers `when` with the given calls (arguments as JSON or verbatim text). */
const calling = (when: string, toolCalls: { name: string; args?: unknown; argsText?: string }[]): ScriptRule => ({
  name: when,
  when,
  reply: { toolCalls },
});
const types = (events: readonly Event[]) => events.map((event) => event.type);
const lastEvent = (events: readonly Event[]) => events.at(-1) as Extract<Event, { type: 'RUN_FINISHED' }>;

describe('arguments of a server call are parsed and validated exactly once per call', () => {
  /** A Standard Schema validator that counts its runs and doubles `n` (a transform). */
  function countingSchema() {
    const validate = vi.fn((value: unknown): StandardSchemaV1.Result<{ n: number }> => {
      const n = (value as { n?: unknown } | null)?.n;
      return typeof n === 'number' ? { value: { n: n * 2 } } : { issues: [{ message: 'n must be a number', path: ['n'] }] };
    });
    const schema: StandardSchemaV1<unknown, { n: number }> = { '~standard': { version: 1, vendor: 'test', validate } };
    return { schema, validate };
  }

  it('runs the validator once, and the tool and its approval policy receive the transformed input', async () => {
    const { schema, validate } = countingSchema();
    const policy = vi.fn((input: { n: number }) => input.n > 100);
    const execute = vi.fn(async (input: { n: number }) => input);
    const double = toolDefinition({
      name: 'double',
      description: 'Doubles n.',
      inputSchema: schema,
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      needsApproval: policy,
    }).server(execute);
    const model = createScriptedModel({ rules: [calling('go', [{ name: 'double', args: { n: 3 } }])] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [double], secret: 's' }));
    expect(validate).toHaveBeenCalledTimes(1);
    expect(policy).toHaveBeenCalledWith({ n: 6 });
    // A second validation would have seen { n: 6 } and made it 12.
    expect(execute).toHaveBeenCalledWith({ n: 6 }, expect.anything());
    expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: '{"n":6}' });
  });

  it('a zod transform runs once: the tool gets its output, not a second pass over it', async () => {
    const length = vi.fn(async ({ word }: { word: number }) => ({ length: word }));
    const measure = toolDefinition({
      name: 'measure',
      description: 'Length of a word.',
      inputSchema: z.object({ word: z.string().transform((text) => text.length) }),
      parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    }).server(length);
    const model = createScriptedModel({ rules: [calling('go', [{ name: 'measure', args: { word: 'chatwire' } }])] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [measure], secret: 's' }));
    expect(length).toHaveBeenCalledWith({ word: 8 }, expect.anything());
    expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: '{"length":8}' });
  });

  it('an approved call is validated once in the run that executes it', async () => {
    const { schema, validate } = countingSchema();
    const execute = vi.fn(async (input: { n: number }) => input);
    const double = toolDefinition({
      name: 'double',
      description: 'Doubles n.',
      inputSchema: schema,
      parameters: { type: 'object' },
      needsApproval: true,
    }).server(execute);
    const options = {
      model: createScriptedModel({ rules: [calling('go', [{ name: 'double', args: { n: 5 } }])] }),
      tools: [double],
      secret: 's',
      store: createMemoryStore(),
      threadId: 't',
    };
    const history: Message[] = [user('go', 'u1')];
    const first = await collect(chat({ ...options, messages: history }));
    const [interrupt] = interruptsOf(first);
    validate.mockClear();
    await collect(
      chat({
        ...options,
        messages: applyEvents(history, first),
        resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }],
      }),
    );
    expect(validate).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledWith({ n: 10 }, expect.anything());
  });
});

describe('what a server tool receives in its context', () => {
  it('messages: the history up to the call, the assistant message holding it included', async () => {
    let seen: ToolContext | undefined;
    const inspect = toolDefinition({ name: 'inspect', description: 'Looks at the run.', inputSchema: z.object({}) }).server(
      async (_input, context) => {
        seen = context;
        return { ok: true };
      },
    );
    const model = createScriptedModel({ rules: [calling('look', [{ name: 'inspect', args: {} }])] });
    const events = await collect(
      chat({
        model,
        messages: [user('earlier', 'u0'), { id: 'a0', role: 'assistant', content: 'hi' }, user('look', 'u1')],
        tools: [inspect],
        secret: 's',
      }),
    );
    const start = events.find((event) => event.type === 'TOOL_CALL_START');
    expect(seen?.messages?.map((message) => message.id)).toEqual([
      'u0',
      'a0',
      'u1',
      start?.type === 'TOOL_CALL_START' ? start.parentMessageId : 'missing',
    ]);
    const holder = seen?.messages?.at(-1);
    expect(holder?.role === 'assistant' && holder.toolCalls?.[0]?.id).toBe(seen?.toolCallId);
  });

  it('emit: CUSTOM events reach the stream in order, before the call result; reserved names and non-JSON values throw', async () => {
    const problems: string[] = [];
    let late: ((name: string, value: unknown) => void) | undefined;
    const report = toolDefinition({ name: 'report', description: 'Reports progress.', inputSchema: z.object({}) }).server(
      async (_input, { emit }) => {
        emit?.('progress', { done: 1 });
        const value = { done: 2 };
        emit?.('progress', value);
        value.done = 99; // the event carries what was emitted, not later changes
        for (const attempt of [() => emit?.('chatwire.tool_executing', {}), () => emit?.('loop', { big: 1n })]) {
          try {
            attempt();
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
        late = emit;
        return { ok: true };
      },
    );
    const model = createScriptedModel({ rules: [calling('go', [{ name: 'report', args: {} }])] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [report], secret: 's' }));
    const custom = events.filter((event) => event.type === 'CUSTOM' && !event.name.startsWith('chatwire.'));
    expect(custom).toEqual([
      { type: 'CUSTOM', name: 'progress', value: { done: 1 } },
      { type: 'CUSTOM', name: 'progress', value: { done: 2 } },
    ]);
    expect(events.indexOf(custom[1]!)).toBeLessThan(events.findIndex((event) => event.type === 'TOOL_CALL_RESULT'));
    expect(problems).toEqual([
      "emit('chatwire.tool_executing'): event names starting with 'chatwire.' are reserved for Chatwire.",
      expect.stringMatching(/^emit\('loop'\): the value is not JSON/),
    ]);
    // After the call settled its place in the stream is gone: nothing is added, nothing throws.
    expect(() => late?.('progress', { done: 3 })).not.toThrow();
    expect(events.filter((event) => event.type === 'CUSTOM' && event.name === 'progress')).toHaveLength(2);
  });
});

describe('how a run ends (AG-UI 1.0 outcomes)', () => {
  const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }) });
  const lookup = toolDefinition({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({}) }).server(async () => ({
    found: true,
  }));
  const remove = toolDefinition({ name: 'remove', description: 'Removes.', inputSchema: z.object({}), needsApproval: true }).server(
    async () => ({ removed: true }),
  );

  it("a browser call with arguments that do not parse is still the application's: handed off, never answered by the server", async () => {
    const model = createScriptedModel({ rules: [calling('go', [{ name: 'showBanner', argsText: '{"text": "unterminated' }])] });
    const events = await collect(chat({ model, messages: [user('go')], frontendTools: [toWireTool(showBanner)], secret: 's' }));
    const start = events.find((event) => event.type === 'TOOL_CALL_START');
    expect(events.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(false);
    expect(lastEvent(events).outcome).toEqual({
      type: 'success',
      pendingToolCallIds: [start?.type === 'TOOL_CALL_START' ? start.toolCallId : 'missing'],
    });
  });

  it('a response with a server call and a browser call runs the server call, then finishes with the browser call pending', async () => {
    const model = createScriptedModel({
      rules: [
        calling('go', [
          { name: 'lookup', args: {} },
          { name: 'showBanner', args: { text: 'x' } },
        ]),
      ],
    });
    const events = await collect(
      chat({ model, messages: [user('go')], tools: [lookup], frontendTools: [toWireTool(showBanner)], secret: 's' }),
    );
    const starts = events.filter((event) => event.type === 'TOOL_CALL_START');
    expect(events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event) => event.toolCallId)).toEqual([starts[0]?.toolCallId]);
    expect(lastEvent(events).outcome).toEqual({ type: 'success', pendingToolCallIds: [starts[1]?.toolCallId] });
  });

  it('an approval and a browser call in one response: an interrupt outcome; the browser call stays unanswered', async () => {
    const model = createScriptedModel({
      rules: [
        calling('go', [
          { name: 'remove', args: {} },
          { name: 'showBanner', args: { text: 'x' } },
        ]),
      ],
    });
    const events = await collect(
      chat({ model, messages: [user('go')], tools: [remove], frontendTools: [toWireTool(showBanner)], secret: 's' }),
    );
    expect(events.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(false);
    expect(interruptsOf(events).map((interrupt) => interrupt.reason)).toEqual(['tool_call']);
  });

  it('reaching maxIterations with results the model has not read finishes as cancelled, not success', async () => {
    const model = createScriptedModel({
      rules: [{ name: 'loop', when: () => true, reply: { toolCalls: [{ name: 'lookup', args: {} }] } }],
    });
    const events = await collect(chat({ model, messages: [user('go')], tools: [lookup], maxIterations: 2, secret: 's' }));
    expect(types(events).filter((type) => type === 'STEP_STARTED')).toHaveLength(2);
    expect(lastEvent(events).outcome).toEqual({ type: 'cancelled' });
  });

  it("RUN_STARTED declares protocol 1.0 and repeats the input's parentRunId; the run finishes with an explicit success", async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 's' });
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('hello')], { runId: 'run_2', parentRunId: 'run_1', protocolVersion: '1.0' })),
      }),
    );
    const events = await readEvents(response);
    expect(events[0]).toEqual({
      type: 'RUN_STARTED',
      threadId: 'thread_test',
      runId: 'run_2',
      protocolVersion: '1.0',
      parentRunId: 'run_1',
    });
    expect(lastEvent(events).outcome).toEqual({ type: 'success' });
  });
});

describe('discovery results the browser answered (client-managed discovery) against this server', () => {
  const discoveryCall = {
    id: 'call_d',
    type: 'function' as const,
    function: { name: DISCOVERY_TOOL_NAME, arguments: '{"toolNames":["showBanner"]}' },
  };
  const history: Message[] = [
    user('show a banner', 'u1'),
    { id: 'a1', role: 'assistant', toolCalls: [discoveryCall] },
    { id: 't1', role: 'tool', toolCallId: 'call_d', content: '{"discovered":["showBanner"]}' },
    user('thanks', 'u2'),
  ];
  const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }) });
  const send = (tools: unknown[]) =>
    createChatHandler({ model: createScriptedModel(), secret: 's' })(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput(history, { tools })),
      }),
    );

  it('are accepted once every lazy tool is discovered and the browser stops sending the discovery tool', async () => {
    const response = await send([toWireTool(showBanner)]);
    expect(response.status).toBe(200);
    expect(lastEvent(await readEvents(response)).type).toBe('RUN_FINISHED');
  });

  it('are accepted while the browser still sends its own discovery tool', async () => {
    const discoveryTool = {
      name: DISCOVERY_TOOL_NAME,
      description: 'Loads tools.',
      parameters: { type: 'object', properties: { toolNames: { type: 'array', items: { type: 'string' } } } },
    };
    const response = await send([toWireTool(showBanner), discoveryTool]);
    expect(response.status).toBe(200);
  });

  it("stay the server's to verify when the server manages lazy tools: an unsigned one is refused", async () => {
    const lazyBanner = { ...toWireTool(showBanner), metadata: { chatwire: { lazy: true } } };
    const response = await send([lazyBanner]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('unsigned-result');
  });
});
