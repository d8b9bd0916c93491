import { describe, expect, it } from 'vitest';
import { ChatClient, type ChatClientOptions, type ChatConnection, type ChatMessage, type ToolCallPart } from '@chatwire/core';
import { toWireMessages } from '@chatwire/core/shared';
import { readModelCallUsage } from '@chatwire/core/wire';
import { CODE_MODE_EVENTS, codeExecutionOf, codeModeEvents, readCodeModeUsage, type CodeExecution } from '../src/client.js';

/**
 * Code Mode's `chatwire.code_mode.*` events on the client, turned on with `customEvents:
 * [codeModeEvents]`: each updates the execution (`part.extensions.codeMode`) of the
 * `execute_typescript` call it names. The streams are hand-written in the shape docs/protocol.md
 * documents (and stream.test.ts checks the server emits).
 */

const run = {
  started: { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  finished: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
  text: (messageId: string, ...deltas: string[]) => [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ],
};

/** A client whose every run streams `events` (AG-UI events, as a connection yields them). */
function clientOver(events: readonly unknown[], options: Partial<ChatClientOptions>): ChatClient {
  const connection: ChatConnection = {
    async *run() {
      for (const event of events) yield event;
    },
  };
  return new ChatClient({ connection, onWarning: () => {}, ...options });
}

const code =
  "const [a, b] = await Promise.all([external_getWeather({ city: 'Paris' }), external_getWeather({ city: 'Tokyo' })]);\nreturn { warmer: a.celsius > b.celsius ? 'Paris' : 'Tokyo' };";
const custom = (type: keyof typeof CODE_MODE_EVENTS, value: Record<string, unknown>) => ({
  type: 'CUSTOM',
  name: CODE_MODE_EVENTS[type],
  value: { executionId: 'exec_1', toolCallId: 'x1', ...value },
});

/** The execute_typescript call, streamed and announced as executing. */
const executeCall = [
  { type: 'TOOL_CALL_START', toolCallId: 'x1', toolCallName: 'execute_typescript', parentMessageId: 'a1' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'x1', delta: JSON.stringify({ typescriptCode: code }) },
  { type: 'TOOL_CALL_END', toolCallId: 'x1' },
  { type: 'CUSTOM', name: 'chatwire.tool_executing', value: { toolCallId: 'x1' } },
];

/** A whole execution: two parallel calls (one fails), a console line, success. */
const executionEvents = [
  custom('execution_started', {
    code,
    bindings: ['external_getWeather', 'external_getForecast'],
    undiscovered: ['external_getForecast'],
    discoveryKnown: true,
  }),
  custom('external_call', { callId: 'x1.1', toolName: 'getWeather', input: { city: 'Paris' } }),
  custom('external_call', { callId: 'x1.2', toolName: 'getWeather', input: { city: 'Tokyo' } }),
  custom('external_result', { callId: 'x1.1', toolName: 'getWeather', output: { city: 'Paris', celsius: 18 }, durationMs: 41 }),
  custom('external_error', {
    callId: 'x1.2',
    toolName: 'getWeather',
    error: { name: 'ToolError', message: 'Tokyo is offline' },
    durationMs: 43,
  }),
  custom('console', { level: 'warn', text: 'Tokyo failed; using Paris only' }),
  custom('execution_finished', { success: true, durationMs: 57, toolCalls: 2, logLines: 1, truncated: false }),
];

const result = { success: true, result: { warmer: 'Paris' }, logs: ['Tokyo failed; using Paris only'] };
const resultEvent = { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'x1', content: JSON.stringify(result) };

const callOf = (messages: readonly ChatMessage[]) =>
  messages.at(-1)?.parts.find((part): part is ToolCallPart => part.type === 'tool-call' && part.toolCallId === 'x1');

function clientFor(events: readonly unknown[], customEvents: ChatClientOptions['customEvents'] = [codeModeEvents]) {
  const warnings: string[] = [];
  const client = clientOver(events, { customEvents, onWarning: (message) => warnings.push(message) });
  // Every execution this client's listeners saw, in order (the store notifies once per change).
  const seen: CodeExecution[] = [];
  client.subscribe(() => {
    const call = callOf(client.getSnapshot().messages);
    const current = call && codeExecutionOf(call);
    if (current && current !== seen.at(-1)) seen.push(current);
  });
  return { client, warnings, seen };
}

describe('Code Mode executions on the client', () => {
  it('shows the code, the logs, each nested call through its states, and the call’s result', async () => {
    const { client, warnings, seen } = clientFor([
      run.started,
      ...executeCall,
      ...executionEvents,
      resultEvent,
      ...run.text('a2', 'Paris is warmer.'),
      run.finished,
    ]);
    await client.sendMessage('use code to compare the weather in Paris and Tokyo');

    const call = callOf(client.getSnapshot().messages);
    expect(call?.state).toBe('output-available');
    expect(call?.result?.output).toEqual(result);
    expect(call?.extensions?.codeMode).toEqual({
      executionId: 'exec_1',
      code,
      state: 'succeeded',
      logs: [{ level: 'warn', text: 'Tokyo failed; using Paris only' }],
      calls: [
        {
          callId: 'x1.1',
          toolName: 'getWeather',
          state: 'output-available',
          input: { city: 'Paris' },
          output: { city: 'Paris', celsius: 18 },
          durationMs: 41,
        },
        {
          callId: 'x1.2',
          toolName: 'getWeather',
          state: 'output-error',
          input: { city: 'Tokyo' },
          error: { name: 'ToolError', message: 'Tokyo is offline' },
          durationMs: 43,
        },
      ],
      undiscovered: ['external_getForecast'],
      durationMs: 57,
    });
    // Both calls were executing at once before either settled; the execution ran until its finished event.
    const states = seen.map((execution) => `${execution.state}:${execution.calls.map((nested) => nested.state).join(',')}`);
    expect(states).toEqual([
      'running:',
      'running:executing',
      'running:executing,executing',
      'running:output-available,executing',
      'running:output-available,output-error',
      'running:output-available,output-error',
      'succeeded:output-available,output-error',
    ]);
    expect(warnings).toEqual([]);
  });

  it('cancels nested calls still running when the execution ends, and keeps its error', async () => {
    const error = {
      code: 'timeout',
      name: 'TimeoutError',
      message: 'The execution ran out of time (limit 500 ms, time in external calls included).',
    };
    const { client } = clientFor([
      run.started,
      ...executeCall,
      executionEvents[0],
      executionEvents[1],
      custom('execution_finished', { success: false, error, durationMs: 502, toolCalls: 1, logLines: 0, truncated: false }),
      { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'x1', content: JSON.stringify({ success: false, error }) },
      run.finished,
    ]);
    await client.sendMessage('slow');
    expect(callOf(client.getSnapshot().messages)?.extensions?.codeMode).toMatchObject({
      state: 'failed',
      error,
      durationMs: 502,
      calls: [{ callId: 'x1.1', state: 'cancelled', input: { city: 'Paris' } }],
    });
  });

  it('starts the execution from the call’s input when events arrive before execution_started', async () => {
    const { client } = clientFor([run.started, ...executeCall, executionEvents[1], executionEvents[3], run.finished]);
    await client.sendMessage('late');
    expect(callOf(client.getSnapshot().messages)?.extensions?.codeMode).toMatchObject({
      executionId: 'exec_1',
      code,
      state: 'running',
      calls: [{ callId: 'x1.1', state: 'output-available' }],
    });
  });

  it('keeps a nested output the server cut, marked as cut', async () => {
    const { client } = clientFor([
      run.started,
      ...executeCall,
      executionEvents[0],
      executionEvents[1],
      custom('external_result', {
        callId: 'x1.1',
        toolName: 'getWeather',
        output: '{"rows":[1,2… [cut]',
        outputTruncated: true,
        durationMs: 9,
      }),
      run.finished,
    ]);
    await client.sendMessage('big');
    expect(callOf(client.getSnapshot().messages)?.extensions?.codeMode?.calls[0]).toMatchObject({
      state: 'output-available',
      output: '{"rows":[1,2… [cut]',
      outputTruncated: true,
    });
  });

  it('drops malformed events, unknown types and events naming no call of the chat, each with a warning', async () => {
    const { client, warnings } = clientFor([
      run.started,
      ...executeCall,
      executionEvents[0],
      custom('console', { level: 'log' }), // no text
      { type: 'CUSTOM', name: CODE_MODE_EVENTS.external_call, value: 'not an object' },
      { type: 'CUSTOM', name: 'chatwire.code_mode.execution_paused', value: { executionId: 'exec_1', toolCallId: 'x1' } },
      {
        ...custom('external_call', { callId: 'y1.1', toolName: 'getWeather', input: {} }),
        value: { executionId: 'exec_9', toolCallId: 'y1', callId: 'y1.1', toolName: 'getWeather' },
      },
      custom('console', { level: 'log', text: 'kept' }),
      run.finished,
    ]);
    await client.sendMessage('bad events');
    const execution = callOf(client.getSnapshot().messages)?.extensions?.codeMode;
    expect(execution?.logs).toEqual([{ level: 'log', text: 'kept' }]);
    expect(execution?.calls).toEqual([]);
    expect(warnings).toEqual([
      "A 'chatwire.code_mode.console' event was ignored: `text` must be a string (got undefined).",
      "A 'chatwire.code_mode.external_call' event was ignored: the value must be an object.",
      "Unknown Code Mode event 'chatwire.code_mode.execution_paused': ignored.",
      "A 'chatwire.code_mode.external_call' event names no tool call of this chat ('y1'): ignored.",
    ]);
  });

  it('caps the console lines one execution keeps and marks it cut', async () => {
    const lines = Array.from({ length: 1_005 }, (_, index) => custom('console', { level: 'log', text: `line ${index}` }));
    const { client } = clientFor([run.started, ...executeCall, executionEvents[0], ...lines, run.finished]);
    await client.sendMessage('noisy');
    const execution = callOf(client.getSnapshot().messages)?.extensions?.codeMode;
    expect(execution?.logs).toHaveLength(1_000);
    expect(execution?.logs.at(-1)).toEqual({ level: 'log', text: 'line 999' });
    expect(execution?.truncated).toBe(true);
  });

  it('keeps the execution when a messages snapshot replaces the turn, and never sends it back', async () => {
    const wireMessages = [
      {
        id: 'a1',
        role: 'assistant',
        toolCalls: [
          { id: 'x1', type: 'function', function: { name: 'execute_typescript', arguments: JSON.stringify({ typescriptCode: code }) } },
        ],
      },
      { id: 't1', role: 'tool', toolCallId: 'x1', content: JSON.stringify(result) },
    ];
    const { client } = clientFor([
      run.started,
      ...executeCall,
      ...executionEvents,
      resultEvent,
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u1', role: 'user', content: 'compare' }, ...wireMessages] },
      run.finished,
    ]);
    await client.sendMessage('compare');
    const call = callOf(client.getSnapshot().messages);
    expect(call?.state).toBe('output-available');
    expect(call?.extensions?.codeMode?.state).toBe('succeeded');
    expect(call?.extensions?.codeMode?.calls).toHaveLength(2);
    expect(JSON.stringify(toWireMessages(client.getSnapshot().messages))).not.toContain('exec_1');
  });
});

describe('turning Code Mode on in a client', () => {
  it('a client without codeModeEvents keeps Code Mode’s events off the parts (the call still has its input and result)', async () => {
    const { client, warnings, seen } = clientFor([run.started, ...executeCall, ...executionEvents, resultEvent, run.finished], []);
    await client.sendMessage('compare');
    const call = callOf(client.getSnapshot().messages);
    expect(call?.state).toBe('output-available');
    expect(call?.result?.output).toEqual(result);
    expect(call?.extensions).toBeUndefined();
    expect(seen).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('is plain data: a name, the namespace’s prefix, a loader of the reducer', async () => {
    expect(codeModeEvents.name).toBe('codeMode');
    expect(codeModeEvents.prefix).toBe('chatwire.code_mode.');
    for (const name of Object.values(CODE_MODE_EVENTS)) expect(name.startsWith(codeModeEvents.prefix)).toBe(true);
    expect(typeof (await codeModeEvents.load())).toBe('function');
  });
});

describe('readCodeModeUsage', () => {
  const usage = {
    runId: 'r',
    step: 1,
    toolsSent: ['execute_typescript'],
    toolsDeferred: [],
    newlyDiscovered: [],
    tokens: { sent: 10, allEager: 20, saved: 10, discoveryTool: 3, discoveryRoundTrips: 0, net: 10 },
    counting: { method: 'o200k', errorBound: 0, estimate: false },
    eagerWouldBeCheaper: false,
  };
  const codeMode = {
    apis: { eager: ['getTime'], discovered: ['getWeather'], undiscovered: ['getForecast'], newlyDiscovered: ['getWeather'] },
    tokens: {
      prompt: 400,
      toolDefinitions: 120,
      sent: 520,
      allEager: 900,
      saved: 380,
      discoveryRoundTrips: 90,
      net: 290,
      code: 60,
      results: 30,
    },
    counting: { method: 'o200k', errorBound: 0 },
  };

  it('reads Code Mode’s share of a record core read (core passes the field through unchecked)', () => {
    const record = readModelCallUsage({ ...usage, codeMode });
    expect(record).toBeDefined();
    expect(readCodeModeUsage(record!)).toEqual(codeMode);
    expect(readCodeModeUsage(readModelCallUsage(usage)!)).toBeUndefined();
  });

  it('reads a malformed share as none, and keeps the rest of the record', () => {
    for (const malformed of [
      { ...codeMode, apis: { ...codeMode.apis, undiscovered: 'getForecast' } },
      { ...codeMode, tokens: { ...codeMode.tokens, results: undefined } },
      'yes',
    ]) {
      const record = readModelCallUsage({ ...usage, codeMode: malformed });
      expect(record?.tokens.sent).toBe(10);
      expect(readCodeModeUsage(record!)).toBeUndefined();
    }
  });
});
