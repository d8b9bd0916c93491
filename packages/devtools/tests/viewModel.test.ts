import { describe, expect, it } from 'vitest';
import { type ChatMessage, type ModelCallUsage, type ToolCallPart, type TurnRecord } from '@chatwire/core';
import { createToolCallPart, transitionToolCall, type HistoryTurn, type ToolCallEvent } from '@chatwire/core/shared';
import {
  buildEventRows,
  buildTimeline,
  grantsInChat,
  buildTokensView,
  buildToolRows,
  eventTypes,
  savingsAtAGlance,
  truncatedJson,
  turnAsFixture,
} from '@chatwire/devtools/production';

/** A hand-written accounting record (what a server would stream for one model call). */
const usage = (over: Partial<ModelCallUsage> & { sent: number; allEager: number; roundTrips?: number }): ModelCallUsage => ({
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

const discoveryCall = (id: string, names: string[], at: number) =>
  call(
    id,
    '__lazy__tool__discovery__',
    [
      [{ type: 'inputDelta', delta: JSON.stringify({ toolNames: names }) }, at],
      [{ type: 'inputEnd' }, at],
      [{ type: 'execute' }, at],
      [{ type: 'output', content: JSON.stringify({ discovered: names }), output: { discovered: names } }, at + 5],
    ],
    at,
  );

const userMessage = (id: string): ChatMessage => ({ id, role: 'user', parts: [{ type: 'text', text: id, state: 'done' }], createdAt: 0 });
const assistant = (id: string, parts: ToolCallPart[]): ChatMessage => ({ id, role: 'assistant', parts, createdAt: 0 });

describe('Tokens view', () => {
  const turns: TurnRecord[] = [
    {
      id: 'u1',
      startedAt: 0,
      modelCalls: [usage({ sent: 900, allEager: 5_000 }), usage({ step: 2, sent: 1_100, allEager: 5_000, roundTrips: 60 })],
    },
    {
      id: 'u2',
      startedAt: 10,
      modelCalls: [
        usage({ sent: 4_990, allEager: 5_000, roundTrips: 40, providerUsage: { inputTokens: 6_000, cachedInputTokens: 4_000 } }),
      ],
    },
  ];
  const view = buildTokensView(turns);

  it('sums each turn and accumulates the net across turns', () => {
    expect(
      view.turns.map((turn) => [turn.turn, turn.sent, turn.allEager, turn.saved, turn.discoveryRoundTrips, turn.net, turn.cumulativeNet]),
    ).toEqual([
      [1, 2_000, 10_000, 8_000, 60, 7_940, 7_940],
      [2, 4_990, 5_000, 10, 40, -30, 7_910],
    ]);
    expect(view.turns[0]!.netShare).toBeCloseTo(0.794);
    expect(view.totals).toEqual({ sent: 6_990, allEager: 15_000, net: 7_910, netShare: 7_910 / 15_000 });
  });

  it('reports calls where eager would have been cheaper, the counting method and provider caching', () => {
    expect(view.eagerCheaperCalls).toBe(1);
    expect(view.counting).toEqual([{ method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false }]);
    expect(view.cachingReported).toBe(true);
    expect(view.turns[1]!.providerInputTokens).toBe(6_000);
    expect(view.turns[0]!.providerInputTokens).toBeUndefined();
  });

  it('gives the header the selected turn and the conversation, with the same figures as the tables', () => {
    expect(savingsAtAGlance(view, 1)).toEqual({
      turn: { number: 1, net: 7_940, share: 7_940 / 10_000, allEager: 10_000, calls: 2 },
      conversation: { net: 7_910, share: 7_910 / 15_000, allEager: 15_000, calls: 3 },
    });
    // Turn 2 cost more than it saved: the figure stays negative rather than hidden.
    expect(savingsAtAGlance(view, 2).turn).toMatchObject({ net: -30, share: -30 / 5_000 });
    expect(savingsAtAGlance(buildTokensView([]), 0)).toEqual({
      turn: undefined,
      conversation: { net: 0, share: 0, allEager: 0, calls: 0 },
    });
  });

  it('is empty without records', () => {
    expect(buildTokensView([])).toMatchObject({
      turns: [],
      totals: { sent: 0, allEager: 0, net: 0, netShare: 0 },
      cachingReported: false,
      conversation: undefined,
    });
  });
});

describe('Tokens view: whole requests', () => {
  // Records with whole-request figures: a call-to-load call whose arguments failed (the request after
  // it is a discovery step), then the summary; the second turn's provider reported its cache.
  const withInput = (over: Partial<ModelCallUsage> & { sent: number; allEager: number; input: number; roundTrips?: number }) =>
    usage({ ...over, tokens: { ...usage(over).tokens, input: over.input, system: 20 } });
  const turns: TurnRecord[] = [
    {
      id: 'u1',
      startedAt: 0,
      modelCalls: [
        withInput({ sent: 100, allEager: 1_000, input: 400, toolsSent: ['a', '__lazy__tool__discovery__'] }),
        withInput({
          step: 2,
          sent: 200,
          allEager: 1_000,
          input: 700,
          roundTrips: 150,
          discoveryStep: true,
          toolsSent: ['a', '__lazy__tool__discovery__', 'b'],
        }),
        withInput({ step: 3, sent: 200, allEager: 1_000, input: 800, roundTrips: 150, toolsSent: ['a', '__lazy__tool__discovery__', 'b'] }),
      ],
    },
    {
      id: 'u2',
      startedAt: 0,
      modelCalls: [
        withInput({
          sent: 200,
          allEager: 1_000,
          input: 900,
          roundTrips: 150,
          toolsSent: ['a', '__lazy__tool__discovery__', 'b'],
          providerUsage: { inputTokens: 900, cachedInputTokens: 750 },
        }),
      ],
    },
  ];
  const view = buildTokensView(turns);

  it('splits each request into cached and uncached input: reported by the provider, else modelled, labelled which', () => {
    const [first, second, third] = view.turns[0]!.calls;
    expect(first!.cache).toEqual({ cached: 120, uncached: 280, source: 'modelled' }); // warm tools + system
    expect(second!.cache).toEqual({ cached: 100, uncached: 600, source: 'modelled' }); // a tool appended: only the old tools
    expect(third!.cache).toEqual({ cached: 700, uncached: 100, source: 'modelled' }); // same tools: the whole previous request
    expect(view.turns[1]!.calls[0]!.cache).toEqual({ cached: 750, uncached: 150, source: 'reported' });
    expect(view.turns[0]!.cache).toEqual({ cached: 920, uncached: 980, source: 'modelled' });
    expect(view.turns[0]!.input).toBe(1_900);
    expect(second!.discoveryStep).toBe(true);
  });

  it("derives the conversation's record from the records (or takes the snapshot's), and the header shows it", () => {
    // Requests: 4 made, 3 needed all-eager. Input: 2,800 lazy; all-eager (400-100+1,000) + (800-200+1,000-150) + (900-200+1,000-150).
    expect(view.conversation).toMatchObject({ requests: { lazy: 4, allEager: 3 }, input: { lazy: 2_800, allEager: 4_300 }, net: 1_500 });
    expect(savingsAtAGlance(view, 2).requests).toBe(view.conversation);
    const fromSnapshot = { ...view.conversation!, net: -5 };
    expect(buildTokensView(turns, fromSnapshot).conversation).toBe(fromSnapshot);
  });
});

describe('Tools view', () => {
  const catalog = [
    { name: 'getWeather', kind: 'server' as const, lazy: false, needsApproval: false, tokens: 40 },
    { name: 'trackShipment', kind: 'server' as const, lazy: true, needsApproval: false, tokens: 120 },
    { name: 'addTodo', kind: 'client' as const, lazy: true, needsApproval: false, tokens: 60 },
    { name: 'sendEmail', kind: 'server' as const, lazy: true, needsApproval: true, tokens: 200 },
  ];
  const messages: ChatMessage[] = [
    userMessage('u1'),
    assistant('a1', [discoveryCall('d1', ['trackShipment'], 2_000)]),
    userMessage('u2'),
    assistant('a2', [discoveryCall('d2', ['addTodo'], 3_000)]),
  ];
  const turns: TurnRecord[] = [
    {
      id: 'u1',
      startedAt: 0,
      modelCalls: [
        usage({ sent: 1, allEager: 2, toolsSent: ['getWeather', '__lazy__tool__discovery__'] }),
        usage({
          step: 2,
          sent: 1,
          allEager: 2,
          toolsSent: ['getWeather', '__lazy__tool__discovery__', 'trackShipment'],
          newlyDiscovered: ['trackShipment'],
        }),
      ],
    },
    {
      id: 'u2',
      startedAt: 0,
      modelCalls: [
        usage({ sent: 1, allEager: 2, toolsSent: ['getWeather', '__lazy__tool__discovery__', 'trackShipment'] }),
        usage({
          step: 2,
          sent: 1,
          allEager: 2,
          toolsSent: ['getWeather', '__lazy__tool__discovery__', 'trackShipment', 'addTodo'],
          newlyDiscovered: ['addTodo'],
        }),
      ],
    },
  ];

  it('gives each tool its kind and its discovery status as of the selected turn, naming the model call first sent it', () => {
    const latest = buildToolRows({ catalog, messages, turns });
    expect(
      latest.map((row) => [row.name, row.status, row.discoveredIn?.turn, row.discoveredIn?.modelCall, row.discoveredIn?.toolCallId]),
    ).toEqual([
      ['getWeather', 'eager', undefined, undefined, undefined],
      ['__lazy__tool__discovery__', 'eager', undefined, undefined, undefined],
      ['trackShipment', 'discovered', 1, 2, 'd1'],
      ['addTodo', 'discovered', 2, 2, 'd2'],
      ['sendEmail', 'undiscovered', undefined, undefined, undefined],
    ]);
    const firstTurn = buildToolRows({ catalog, messages, turns, turn: 1 });
    expect(firstTurn.find((row) => row.name === 'addTodo')?.status).toBe('undiscovered');
  });

  it('counts the tools discovered in a chat restored from saved messages, before any turn record exists (as the app does)', () => {
    // After a reload the messages come back from storage but the per-call records do not.
    const restored = buildToolRows({ catalog, messages, turns: [], turn: 0 });
    expect(restored.filter((row) => row.status === 'discovered').map((row) => row.name)).toEqual(['trackShipment', 'addTodo']);
    // Once a new turn is recorded, the latest turn still counts both.
    const afterOneMore = buildToolRows({ catalog, messages: [...messages, userMessage('u3')], turns: turns.slice(0, 1), turn: 1 });
    expect(afterOneMore.filter((row) => row.status === 'discovered').map((row) => row.name)).toEqual(['trackShipment', 'addTodo']);
  });

  it('marks what the selected model call was sent: the model call "Discovered in" names is the first one sent the tool', () => {
    const sentIn = (turn: number, call: number) =>
      buildToolRows({ catalog, messages, turns, turn, call })
        .filter((row) => row.sentInCall)
        .map((row) => row.name);
    expect(sentIn(1, 0)).toEqual(['getWeather', '__lazy__tool__discovery__']);
    expect(sentIn(1, 1)).toEqual(['getWeather', '__lazy__tool__discovery__', 'trackShipment']);
    expect(sentIn(2, 0)).not.toContain('addTodo');
    expect(sentIn(2, 1)).toContain('addTodo');
  });

  it('counts the tools sent in a model call as the Tokens view does (the discovery tool included)', () => {
    const tokens = buildTokensView(turns);
    for (const [turnIndex, turn] of tokens.turns.entries()) {
      for (const [callIndex, call] of turn.calls.entries()) {
        const rows = buildToolRows({ catalog, messages, turns, turn: turnIndex + 1, call: callIndex });
        expect(rows.filter((row) => row.sentInCall)).toHaveLength(call.toolsSent);
      }
    }
    // The discovery tool's row carries the tokens of its definition in the selected call.
    expect(buildToolRows({ catalog, messages, turns }).find((row) => row.kind === 'discovery')?.tokens).toBe(50);
  });

  it('a call-to-load result discovers its tool; loaded tools the conversation never called are marked and filtered', () => {
    const loadCall = (id: string, name: string, undiscovered: boolean) =>
      call(
        id,
        name,
        [
          [{ type: 'inputDelta', delta: '{}' }, 4_000],
          [{ type: 'inputEnd' }, 4_000],
          undiscovered
            ? [
                {
                  type: 'fail',
                  error: 'not loaded',
                  metadata: { chatwire: { outcome: 'error', discoveredTools: [name], undiscovered: true } },
                },
                4_001,
              ]
            : [{ type: 'output', content: '{}', output: {}, metadata: { chatwire: { discoveredTools: [name] } } }, 4_001],
        ],
        4_000,
      );
    const history: ChatMessage[] = [
      ...messages,
      // Still turn 2. sendEmail: loaded by a refused call, never called again. trackShipment (discovered in turn 1) was never called either.
      assistant('a3', [loadCall('s1', 'sendEmail', true)]),
    ];
    const rows = buildToolRows({ catalog, messages: history, turns });
    const byName = (name: string) => rows.find((row) => row.name === name)!;
    expect(byName('sendEmail')).toMatchObject({ status: 'discovered', discoveredIn: { turn: 2, toolCallId: 's1' }, used: false });
    expect(byName('trackShipment').used).toBe(false);
    expect(byName('getWeather').used).toBeUndefined();
    const used = [...history, assistant('a4', [loadCall('t9', 'trackShipment', false)])];
    expect(buildToolRows({ catalog, messages: used, turns }).find((row) => row.name === 'trackShipment')?.used).toBe(true);
    expect(buildToolRows({ catalog, messages: history, turns, filter: { only: 'unused' } }).map((row) => row.name)).toEqual([
      'trackShipment',
      'addTodo',
      'sendEmail',
    ]);
  });

  it('filters by search text and by kind or status', () => {
    const names = (only: Parameters<typeof buildToolRows>[0]['filter']) =>
      buildToolRows({ catalog, messages, turns, filter: only }).map((row) => row.name);
    expect(names({ search: 'ship' })).toEqual(['trackShipment']);
    expect(names({ only: 'client' })).toEqual(['addTodo']);
    expect(names({ only: 'approval' })).toEqual(['sendEmail']);
    expect(names({ only: 'undiscovered' })).toEqual(['sendEmail']);
    expect(names({ only: 'eager' })).toEqual(['getWeather', '__lazy__tool__discovery__']);
  });

  it('without a catalog, lists the tools the token records name', () => {
    const recorded: TurnRecord[] = [
      {
        id: 'u1',
        startedAt: 0,
        modelCalls: [
          usage({
            sent: 1,
            allEager: 2,
            toolsSent: ['getWeather', '__lazy__tool__discovery__'],
            toolsDeferred: ['trackShipment', 'sendEmail'],
          }),
        ],
      },
    ];
    const rows = buildToolRows({ catalog: undefined, messages: [userMessage('u1')], turns: recorded });
    expect(rows.map((row) => [row.name, row.status, row.kind])).toEqual([
      ['__lazy__tool__discovery__', 'eager', 'discovery'],
      ['trackShipment', 'undiscovered', 'unknown'],
      ['sendEmail', 'undiscovered', 'unknown'],
      ['getWeather', 'eager', 'unknown'],
    ]);
  });

  it("with provider-native deferred loading, the provider's search tool is the discovery row, and its searches discover tools", () => {
    const search = (id: string, names: string[], at: number) =>
      call(
        id,
        '__lazy__tool__discovery__',
        [
          [{ type: 'inputDelta', delta: JSON.stringify({ query: 'track a parcel' }) }, at],
          [{ type: 'inputEnd' }, at],
          [{ type: 'execute' }, at],
          [
            {
              type: 'output',
              content: JSON.stringify({ discovered: names, providerSearch: { provider: 'anthropic' } }),
              output: { discovered: names },
            },
            at + 5,
          ],
        ],
        at,
      );
    const providerToolSearch = (loaded: string[]) => ({
      tool: 'tool_search_tool_bm25',
      deferredSent: ['trackShipment', 'sendEmail'],
      loaded,
      billing: 'b',
    });
    const toolsSent = ['getWeather', 'tool_search_tool_bm25', 'trackShipment', 'sendEmail'];
    const recorded: TurnRecord[] = [
      {
        id: 'u1',
        startedAt: 0,
        modelCalls: [
          usage({
            sent: 10,
            allEager: 40,
            toolsSent,
            toolsDeferred: ['trackShipment', 'sendEmail'],
            providerToolSearch: providerToolSearch([]),
          }),
          usage({
            sent: 20,
            allEager: 40,
            toolsSent,
            toolsDeferred: ['sendEmail'],
            newlyDiscovered: ['trackShipment'],
            providerToolSearch: providerToolSearch(['trackShipment']),
          }),
        ],
      },
    ];
    const rows = buildToolRows({
      catalog: undefined,
      messages: [userMessage('u1'), assistant('a1', [search('srvtoolu_1', ['trackShipment'], 1_000)])],
      turns: recorded,
    });
    // Without a catalog, rows come in the records' order (withheld tools first), the discovery row before the lazy ones.
    expect(rows.map((row) => [row.name, row.kind, row.status, row.discoveredIn?.toolCallId])).toEqual([
      ['tool_search_tool_bm25', 'discovery', 'eager', undefined],
      ['trackShipment', 'unknown', 'discovered', 'srvtoolu_1'],
      ['sendEmail', 'unknown', 'undiscovered', undefined],
      ['getWeather', 'unknown', 'eager', undefined],
    ]);
    expect(rows.find((row) => row.kind === 'discovery')?.tokens).toBe(50);
    expect(rows.filter((row) => row.sentInCall)).toHaveLength(toolsSent.length);
  });
});

describe('Timeline view', () => {
  it('lists each call with the time spent in each state and who answered its approval', () => {
    const approved = call('c1', 'refundOrder', [
      [{ type: 'inputDelta', delta: '{"orderId":"A"}' }, 1_010],
      [{ type: 'inputEnd' }, 1_050],
      [{ type: 'approvalRequest', approvalId: 'apr_1', requestedBy: 'server' }, 1_060],
      [{ type: 'approvalResponse', approved: true, by: 'user' }, 4_060],
      [{ type: 'execute' }, 4_100],
      [{ type: 'output', content: '{}' }, 4_400],
    ]);
    const waiting = call(
      'c2',
      'showBanner',
      [
        [{ type: 'inputEnd' }, 5_000],
        [{ type: 'execute' }, 5_000],
      ],
      5_000,
    );
    const rows = buildTimeline([userMessage('u1'), assistant('a1', [approved, waiting])], 6_000);
    expect(rows[0]!.steps.map((step) => [step.state, step.durationMs])).toEqual([
      ['awaiting-input', 10],
      ['input-streaming', 40],
      ['input-complete', 10],
      ['approval-requested', 3_000],
      ['approval-responded', 40],
      ['executing', 300],
      ['output-available', 0],
    ]);
    expect(rows[0]!.approval).toEqual({
      requestedBy: 'server',
      approved: true,
      respondedBy: 'user',
      respondedAt: 4_060,
      reason: undefined,
    });
    // A call still running counts its current state up to now.
    expect(rows[1]!.steps.at(-1)).toEqual({ state: 'executing', at: 5_000, durationMs: 1_000 });
    expect(rows.map((row) => row.turn)).toEqual([1, 1]);
  });
});

describe('Timeline view: input requests', () => {
  it('shows what a call asked the user while it ran, and the answer', () => {
    const asking = call('c3', 'bookTable', [
      [{ type: 'inputEnd' }, 1_000],
      [{ type: 'execute' }, 1_010],
    ]);
    const request = (status: 'pending' | 'resolved', payload?: unknown) => ({
      type: 'interrupt' as const,
      id: 'inp_1',
      reason: 'input_request',
      message: 'How many people?',
      runId: 'r1',
      status,
      ...(payload === undefined ? {} : { payload }),
      metadata: { chatwire: { inputRequest: { toolCallId: 'c3', toolName: 'bookTable', schema: { type: 'object', properties: {} } } } },
    });
    const other = { type: 'interrupt' as const, id: 'x', reason: 'choose', runId: 'r1', status: 'pending' as const };
    const pending = buildTimeline([userMessage('u1'), { ...assistant('a1', [asking]), parts: [asking, request('pending'), other] }], 2_000);
    expect(pending[0]!.inputRequests).toEqual([
      { id: 'inp_1', message: 'How many people?', status: 'pending', content: undefined, expiresAt: undefined },
    ]);
    const answered = buildTimeline(
      [
        userMessage('u1'),
        { ...assistant('a1', [asking]), parts: [asking, request('resolved', { action: 'accept', content: { party: 4 } })] },
      ],
      2_000,
    );
    expect(answered[0]!.inputRequests).toEqual([
      { id: 'inp_1', message: 'How many people?', status: 'accepted', content: { party: 4 }, expiresAt: undefined },
    ]);
    expect(buildTimeline([userMessage('u1'), assistant('a1', [call('c9', 'getWeather', [])])], 2_000)[0]!.inputRequests).toEqual([]);
  });
});

describe('Events view', () => {
  const turn: HistoryTurn = {
    id: 'u1',
    startedAt: 0,
    runs: [],
    dropped: 0,
    events: [
      { at: 1, runId: 'r1', event: { type: 'RUN_STARTED', threadId: 't', runId: 'r1' } as never },
      { at: 2, runId: 'r1', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hello <b>' } as never },
      { at: 3, runId: 'r1', event: { type: 'CUSTOM', name: 'chatwire.model_call_usage', value: { step: 1 } } as never },
      { at: 4, runId: 'r1', event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' } as never },
    ],
  };

  it('filters by type and by text, and labels rows', () => {
    expect(buildEventRows(turn).map((row) => [row.type, row.label])).toEqual([
      ['RUN_STARTED', ''],
      ['TEXT_MESSAGE_CONTENT', 'Hello <b>'],
      ['CUSTOM', 'chatwire.model_call_usage'],
      ['RUN_FINISHED', ''],
    ]);
    expect(buildEventRows(turn, { type: 'CUSTOM' }).map((row) => row.index)).toEqual([2]);
    expect(buildEventRows(turn, { search: 'hello' }).map((row) => row.index)).toEqual([1]);
    expect(eventTypes(turn)).toEqual(['CUSTOM', 'RUN_FINISHED', 'RUN_STARTED', 'TEXT_MESSAGE_CONTENT']);
  });

  it('marks the CUSTOM events the chat declared as data parts, with their id', () => {
    const withData: HistoryTurn = {
      ...turn,
      events: [
        ...turn.events.slice(0, 3),
        { at: 5, runId: 'r1', event: { type: 'CUSTOM', name: 'weather', value: { id: 'w1', data: { celsius: 21 } } } as never },
        { at: 6, runId: 'r1', event: { type: 'CUSTOM', name: 'progress', value: { data: 1 } } as never },
        { at: 7, runId: 'r1', event: { type: 'CUSTOM', name: 'other', value: { id: 'x' } } as never },
      ],
    };
    const rows = buildEventRows(withData, { dataParts: ['weather', 'progress'] });
    expect(rows.map((row) => [row.label, row.dataPart])).toEqual([
      ['', undefined],
      ['Hello <b>', undefined],
      ['chatwire.model_call_usage', undefined],
      ['weather', { name: 'weather', id: 'w1' }],
      ['progress', { name: 'progress' }],
      ['other', undefined],
    ]);
    expect(buildEventRows(withData).some((row) => row.dataPart)).toBe(false);
  });

  it('exports a turn as an SSE fixture that parses back to the same events', () => {
    const fixture = turnAsFixture(turn);
    const frames = fixture.split('\n\n').filter(Boolean);
    expect(frames).toHaveLength(4);
    expect(frames.map((frame) => JSON.parse(frame.replace(/^data: /, '')))).toEqual(turn.events.map((recorded) => recorded.event));
  });

  it('truncates large payloads and says how large they are', () => {
    const big = { text: 'x'.repeat(5_000) };
    const cut = truncatedJson(big, 100);
    expect(cut.truncated).toBe(true);
    expect(cut.text).toHaveLength(101);
    expect(cut.length).toBe(JSON.stringify(big, null, 2).length);
    expect(truncatedJson({ a: 1 }).truncated).toBe(false);
  });
});

describe('decisions and grants in the timeline', () => {
  it('each row carries who decided it; grantsInChat lists each grant once, with the answer that created it and the calls it decided', () => {
    const grant = {
      id: 'grt_1',
      toolName: 'refundOrder',
      effect: 'allow' as const,
      scope: 'thread' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const asked = call('c1', 'refundOrder', [
      [{ type: 'inputEnd', input: {} }, 1_000],
      [{ type: 'approvalRequest', approvalId: 'apr_1', requestedBy: 'server' }, 1_010],
      [{ type: 'approvalResponse', approved: true }, 2_000],
      [{ type: 'execute' }, 2_010],
      [{ type: 'output', content: '{}' }, 2_100],
    ]);
    const granted = call(
      'c2',
      'refundOrder',
      [
        [{ type: 'inputEnd', input: {} }, 3_000],
        [{ type: 'execute' }, 3_010],
        [{ type: 'output', content: '{}' }, 3_100],
      ],
      3_000,
    );
    const byPolicy = call(
      'c3',
      'getWeather',
      [
        [{ type: 'inputEnd', input: {} }, 4_000],
        [{ type: 'output', content: '{}' }, 4_100],
      ],
      4_000,
    );
    const rows = buildTimeline(
      [
        userMessage('u1'),
        assistant('a1', [
          { ...asked, decision: { toolCallId: 'c1', toolName: 'refundOrder', by: 'user', decision: 'approve', grant } },
          { ...granted, decision: { toolCallId: 'c2', toolName: 'refundOrder', by: 'grant', decision: 'approve', grant } },
          { ...byPolicy, decision: { toolCallId: 'c3', toolName: 'getWeather', by: 'policy', decision: 'deny', reason: 'off' } },
        ]),
      ],
      5_000,
    );
    expect(rows.map((row) => row.decision?.by)).toEqual(['user', 'grant', 'policy']);
    expect(grantsInChat(rows)).toEqual([{ grant, createdBy: 'c1', decided: ['c2'] }]);
    expect(grantsInChat(buildTimeline([userMessage('u1'), assistant('a1', [byPolicy])], 5_000))).toEqual([]);
  });
});
