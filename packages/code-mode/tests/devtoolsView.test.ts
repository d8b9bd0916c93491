import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelCallUsage, ToolCallPart, TurnRecord } from '@chatwire/core';
import { createToolCallPart, transitionToolCall, type DevtoolsBlock, type ToolCallEvent } from '@chatwire/core/shared';
import { codeModeDevtoolsView, type CodeExecution, type CodeModeUsage } from '../src/client.js';
import { buildCodeModeView, renderCodeModeView } from '../src/client/devtools/codeModeView.js';

/** A hand-written accounting record (what a server would stream for one model call). */
const usage = (
  over: Partial<ModelCallUsage> & { sent: number; allEager: number; roundTrips?: number; codeMode?: CodeModeUsage },
): ModelCallUsage => ({
  runId: 'run_1',
  step: 1,
  toolsSent: [],
  toolsDeferred: [],
  newlyDiscovered: [],
  tokens: {
    sent: over.sent,
    allEager: over.allEager,
    saved: over.allEager - over.sent,
    discoveryTool: 50,
    discoveryRoundTrips: over.roundTrips ?? 0,
    net: over.allEager - over.sent - (over.roundTrips ?? 0),
  },
  counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
  eagerWouldBeCheaper: over.allEager - over.sent - (over.roundTrips ?? 0) < 0,
  ...over,
});

/** A call driven through the lifecycle at the given times. */
function call(id: string, name: string, steps: [ToolCallEvent, number][], start = 1_000): ToolCallPart {
  let part = createToolCallPart(id, name, `msg_${id}`, start);
  for (const [event, at] of steps) part = transitionToolCall(part, event, at).call;
  return part;
}

const userMessage = (id: string): ChatMessage => ({ id, role: 'user', parts: [{ type: 'text', text: id, state: 'done' }], createdAt: 0 });
const assistant = (id: string, parts: ToolCallPart[]): ChatMessage => ({ id, role: 'assistant', parts, createdAt: 0 });

describe("Code Mode's devtools view", () => {
  /** A hand-written Code Mode share of a model call. */
  const share = (discovered: string[], newly: string[], tokens: { sent: number; allEager: number; roundTrips: number }): CodeModeUsage => ({
    apis: {
      eager: ['getTime'],
      discovered,
      undiscovered: ['getWeather', 'getForecast'].filter((name) => !discovered.includes(name)),
      newlyDiscovered: newly,
    },
    tokens: {
      prompt: tokens.sent - 100,
      toolDefinitions: 100,
      sent: tokens.sent,
      allEager: tokens.allEager,
      saved: tokens.allEager - tokens.sent,
      discoveryRoundTrips: tokens.roundTrips,
      net: tokens.allEager - tokens.sent - tokens.roundTrips,
      code: 0,
      results: 0,
    },
    counting: { method: 'o200k', errorBound: 0 },
  });
  const turns: TurnRecord[] = [
    { id: 'u1', startedAt: 0, modelCalls: [usage({ sent: 10, allEager: 10 })] },
    {
      id: 'u2',
      startedAt: 1,
      modelCalls: [
        usage({ sent: 10, allEager: 10, codeMode: share([], [], { sent: 500, allEager: 2_000, roundTrips: 0 }) }),
        usage({
          step: 2,
          sent: 10,
          allEager: 10,
          codeMode: share(['getWeather'], ['getWeather'], { sent: 500, allEager: 2_000, roundTrips: 150 }),
        }),
        usage({ step: 3, sent: 10, allEager: 10, codeMode: share(['getWeather'], [], { sent: 500, allEager: 2_000, roundTrips: 150 }) }),
      ],
    },
  ];
  const execution = (state: CodeExecution['state'], calls: CodeExecution['calls']): CodeExecution => ({
    executionId: 'e',
    code: 'return 1',
    state,
    logs: [{ level: 'log', text: 'hi' }],
    calls,
    undiscovered: [],
    ...(state === 'running' ? {} : { durationMs: 40 }),
  });
  const executeCall = (id: string, codeExecution: CodeExecution, stopped = false): ToolCallPart => ({
    ...call(id, 'execute_typescript', [
      [{ type: 'inputDelta', delta: '{"typescriptCode":"return 1"}' }, 1],
      [{ type: 'inputEnd' }, 1],
      [{ type: 'execute' }, 2],
      [stopped ? { type: 'cancel', reason: 'aborted' } : { type: 'output', content: '{"success":true}', output: { success: true } }, 3],
    ]),
    extensions: { codeMode: codeExecution },
  });
  const messages: ChatMessage[] = [
    userMessage('u1'),
    assistant('a1', []),
    userMessage('u2'),
    assistant('a2', [
      executeCall(
        'x1',
        execution('succeeded', [
          { callId: 'x1.1', toolName: 'getWeather', state: 'output-available', input: { city: 'Paris' }, output: {} },
          {
            callId: 'x1.2',
            toolName: 'getWeather',
            state: 'output-error',
            input: { city: 'Tokyo' },
            error: { name: 'ToolError', message: 'down' },
          },
        ]),
      ),
      executeCall('x2', execution('running', [{ callId: 'x2.1', toolName: 'getTime', state: 'executing', input: {} }]), true),
    ]),
  ];

  it('lists the APIs as the selected model call saw them, and where each was discovered', () => {
    const first = buildCodeModeView({ turns, messages, turn: 2, call: 0 });
    expect(first?.rows.map((row) => [row.name, row.status])).toEqual([
      ['getTime', 'eager'],
      ['getWeather', 'undiscovered'],
      ['getForecast', 'undiscovered'],
    ]);
    const last = buildCodeModeView({ turns, messages, turn: 2 });
    expect(last?.rows).toEqual([
      { name: 'getTime', status: 'eager', discoveredIn: undefined, callsInTurn: 1 },
      { name: 'getWeather', status: 'discovered', discoveredIn: { turn: 2, modelCall: 2 }, callsInTurn: 2 },
      { name: 'getForecast', status: 'undiscovered', discoveredIn: undefined, callsInTurn: 0 },
    ]);
  });

  it('sums the savings of the turn and the conversation, and gives the selected call’s share', () => {
    const view = buildCodeModeView({ turns, messages, turn: 2, call: 1 });
    expect(view?.turn).toEqual({ calls: 3, sent: 1_500, allEager: 6_000, saved: 4_500, discoveryRoundTrips: 300, net: 4_200 });
    expect(view?.conversation).toEqual(view?.turn);
    expect(view?.call?.tokens.discoveryRoundTrips).toBe(150);
    // Turn 1 had no Code Mode: its view still knows the chat has it, with nothing to show for the turn.
    const firstTurn = buildCodeModeView({ turns, messages, turn: 1 });
    expect(firstTurn?.turn.calls).toBe(0);
    expect(firstTurn?.call).toBeUndefined();
    expect(firstTurn?.executions).toEqual([]);
  });

  it('lists the turn’s executions; one its call ended without a finished event reads as stopped', () => {
    expect(buildCodeModeView({ turns, messages, turn: 2 })?.executions).toEqual([
      { toolCallId: 'x1', state: 'succeeded', nestedCalls: 2, failedCalls: 1, logLines: 1, durationMs: 40 },
      { toolCallId: 'x2', state: 'stopped', nestedCalls: 1, failedCalls: 0, logLines: 1, durationMs: undefined },
    ]);
  });

  it('is undefined for chats without Code Mode', () => {
    expect(buildCodeModeView({ turns: turns.slice(0, 1), messages })).toBeUndefined();
  });

  it('renders as the blocks the devtools panel shows: counts, the model-call choice, savings, the API and execution tables', () => {
    const blocks = renderCodeModeView({ turns, messages, turn: 2, choices: {} });
    const of = <T extends DevtoolsBlock['type']>(type: T) =>
      blocks.filter((block): block is Extract<DevtoolsBlock, { type: T }> => block.type === type);
    expect(of('chips')[0]?.chips.map((chip) => [chip.testId, chip.text])).toEqual([
      ['code-count-eager', '1 eager'],
      ['code-count-discovered', '1 discovered'],
      ['code-count-undiscovered', '1 not discovered yet'],
      ['code-count-executions', '2 executions this turn'],
    ]);
    expect(of('choice')[0]).toMatchObject({ key: 'call', label: 'Code Mode model call', value: '2' });
    expect(of('choice')[0]?.options.map((option) => option.label)).toEqual(['Model call 1', 'Model call 2', 'Model call 3']);
    expect(of('cards')[0]?.cards[0]).toMatchObject({
      testId: 'code-savings-turn',
      value: 'saved 4,200 tokens',
      tone: 'good',
      data: { net: 4_200 },
    });
    const [apis, executions] = of('table');
    expect(apis?.rows.map((row) => [row.data, row.cells[0], row.cells[2]])).toEqual([
      [{ api: 'getTime', status: 'eager' }, { text: 'external_getTime', tone: 'code' }, ''],
      [{ api: 'getWeather', status: 'discovered' }, { text: 'external_getWeather', tone: 'code' }, 'turn 2, model call 2'],
      [{ api: 'getForecast', status: 'undiscovered' }, { text: 'external_getForecast', tone: 'code' }, ''],
    ]);
    expect(executions).toMatchObject({ heading: 'Executions this turn', label: 'Code Mode executions' });
    expect(executions?.rows.map((row) => row.data)).toEqual([{ state: 'succeeded' }, { state: 'stopped' }]);
    // The user's pick of a model call: as the first call saw it, getWeather was not discovered yet.
    const first = renderCodeModeView({ turns, messages, turn: 2, choices: { call: '0' } });
    const firstApis = first.find((block) => block.type === 'table');
    expect(firstApis?.type === 'table' && firstApis.rows[1]?.data).toEqual({ api: 'getWeather', status: 'undiscovered' });
    // A pick that no longer exists falls back to the last call.
    expect(renderCodeModeView({ turns, messages, turn: 2, choices: { call: '7' } }).find((block) => block.type === 'choice')).toMatchObject(
      {
        value: '2',
      },
    );
  });

  it('is offered to the panel as plain data whose module loads on demand: its tab applies once a call had Code Mode', async () => {
    expect(codeModeDevtoolsView).toMatchObject({ id: 'code-mode', label: 'Code Mode' });
    const module = await codeModeDevtoolsView.load();
    expect(module.available({ turns, messages })).toBe(true);
    expect(module.available({ turns: turns.slice(0, 1), messages })).toBe(false);
    expect(module.render({ turns: turns.slice(0, 1), messages, turn: 1, choices: {} })).toEqual([
      { type: 'empty', text: 'No Code Mode in this chat yet.' },
    ]);
  });
});
