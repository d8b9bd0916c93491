import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatClient, type ChatConnection, type ChatMessage, type ModelCallUsage, type TurnRecord } from '@chatwire/core';
import { createToolSearch, readChatRecord, type ToolCatalog } from '@chatwire/core/shared';
import {
  actionRows,
  buildToolUse,
  ChatwireDevtools,
  chatAtStep,
  cutSentence,
  explainExpected,
  playgroundRows,
  recordableActions,
  Replay,
  revivedActions,
} from '@chatwire/devtools/production';
import { chatRecordOf } from '../src/panel/chatRecordFile.js';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot ?? null;

/** A catalog of lazy tools written for these tests, served with the server's search settings (as `createToolsHandler(tools, { discovery })` does). */
const catalog: ToolCatalog = {
  tools: [
    { name: 'getWeather', description: 'Current weather for a city.', kind: 'server', lazy: false, needsApproval: false, tokens: 60 },
    {
      name: 'getForecast',
      description: 'Multi-day forecast for a city with daily highs and lows.',
      kind: 'server',
      lazy: true,
      needsApproval: false,
      tokens: 140,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'number', description: 'How many days ahead.' } },
      },
    },
    {
      name: 'listCalendarEvents',
      description: 'Events of the calendar in a date range.',
      kind: 'server',
      lazy: true,
      needsApproval: false,
      tokens: 120,
      parameters: { type: 'object', properties: { from: { type: 'string', description: 'First day.' } } },
    },
    {
      name: 'refundOrder',
      description: 'Refunds an order to the original payment method.',
      kind: 'server',
      lazy: true,
      needsApproval: true,
      tokens: 90,
    },
    { name: 'trackShipment', description: 'Where a parcel is now.', kind: 'server', lazy: true, needsApproval: false, tokens: 80 },
  ],
  search: { searches: true, mode: 'search', topK: 5, minScore: 0.3, groupAbove: 100, appSearch: false },
};

const stubCatalog = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(catalog)),
  );

const openTab = async (root: ShadowRoot, name: string) => {
  await act(async () => {
    fireEvent.click([...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === name) as HTMLElement);
  });
};

const usage = (runId: string, toolsSent: string[], newlyDiscovered: string[] = []): ModelCallUsage => ({
  runId,
  step: 1,
  toolsSent,
  toolsDeferred: [],
  newlyDiscovered,
  tokens: { sent: 300, allEager: 600, saved: 300, discoveryTool: 50, discoveryRoundTrips: 20, net: 280 },
  counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
  eagerWouldBeCheaper: false,
});

/**
 * A server in miniature: turn 1 discovers getForecast and calls it, then refundOrder asks for
 * approval; the approval's run returns its result. Every run reports the tools it sent.
 */
const connection: ChatConnection = {
  async *run(input) {
    const { threadId, runId } = input;
    const turn = input.messages.filter((message) => message.role === 'user').length;
    yield { type: 'RUN_STARTED', threadId, runId };
    const answered = input.resume?.length;
    if (answered) {
      yield { type: 'TOOL_CALL_RESULT', messageId: 'r2', toolCallId: 'refund1', content: '{"refunded":true}' };
      yield {
        type: 'CUSTOM',
        name: 'chatwire.model_call_usage',
        value: usage(runId, ['getWeather', '__lazy__tool__discovery__', 'getForecast', 'refundOrder']),
      };
      yield { type: 'RUN_FINISHED', threadId, runId };
      return;
    }
    if (turn === 1) {
      yield { type: 'TOOL_CALL_START', toolCallId: 'd1', toolCallName: '__lazy__tool__discovery__', parentMessageId: 'a1' };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: 'd1', delta: '{"toolNames":["getForecast","refundOrder"]}' };
      yield { type: 'TOOL_CALL_END', toolCallId: 'd1' };
      yield { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'd1', content: '{"discovered":["getForecast","refundOrder"]}' };
      yield { type: 'TOOL_CALL_START', toolCallId: 'f1', toolCallName: 'getForecast', parentMessageId: 'a1' };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: 'f1', delta: '{"city":"Paris","days":3}' };
      yield { type: 'TOOL_CALL_END', toolCallId: 'f1' };
      yield { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'f1', content: '{"days":[]}' };
      yield {
        type: 'CUSTOM',
        name: 'chatwire.model_call_usage',
        value: usage(runId, ['getWeather', '__lazy__tool__discovery__', 'getForecast', 'refundOrder'], ['getForecast', 'refundOrder']),
      };
      yield { type: 'RUN_FINISHED', threadId, runId };
      return;
    }
    if (turn === 2) {
      yield { type: 'TOOL_CALL_START', toolCallId: 'refund1', toolCallName: 'refundOrder', parentMessageId: 'a2' };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: 'refund1', delta: '{"orderId":"ORD-1"}' };
      yield { type: 'TOOL_CALL_END', toolCallId: 'refund1' };
      yield {
        type: 'CUSTOM',
        name: 'chatwire.model_call_usage',
        value: usage(runId, ['getWeather', '__lazy__tool__discovery__', 'getForecast', 'refundOrder']),
      };
      yield {
        type: 'RUN_FINISHED',
        threadId,
        runId,
        outcome: { type: 'interrupt', interrupts: [{ id: 'approve-1', reason: 'tool_call', toolCallId: 'refund1' }] },
      };
      return;
    }
    yield { type: 'TEXT_MESSAGE_START', messageId: `m${turn}`, role: 'assistant' };
    yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${turn}`, delta: `answer ${turn}` };
    yield { type: 'TEXT_MESSAGE_END', messageId: `m${turn}` };
    yield {
      type: 'CUSTOM',
      name: 'chatwire.model_call_usage',
      value: usage(runId, ['getWeather', '__lazy__tool__discovery__', 'getForecast', 'refundOrder']),
    };
    yield { type: 'RUN_FINISHED', threadId, runId };
  },
};

const callState = (messages: readonly ChatMessage[], id: string) =>
  messages.flatMap((message) => message.parts).find((part) => part.type === 'tool-call' && part.toolCallId === id) as
    { state: string } | undefined;

async function approvedChat() {
  const client = new ChatClient({ connection });
  return client;
}

describe('the search playground', () => {
  it('ranks the lazy tools with their matched words and fields, marks the cut, and says why an expected tool ranked there', async () => {
    const index = createToolSearch(
      catalog.tools
        .filter((tool) => tool.lazy)
        .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })),
    );
    const explanation = await index.explain('weather for the next days in Paris', { topK: 5, minScore: 0.3 });
    const rows = playgroundRows(explanation);
    expect(rows[0]).toMatchObject({ rank: 1, name: 'getForecast', returned: true });
    // "days" reads as getForecast's "Multi-day" (description) and its `days` parameter; the calendar has it in a parameter only.
    expect(rows[0]?.matched.map((word) => [word.word, word.fields.map((field) => `${field.field}: ${field.words.join(',')}`)])).toEqual([
      ['days', ['description: day', 'parameters: days']],
    ]);
    const calendar = explainExpected(explanation, 'listCalendarEvents');
    expect(calendar.rank).toBe(2);
    expect(calendar.reasons).toContain('Matched “days” in parameters (day).');
    const refund = explainExpected(explanation, 'refundOrder');
    expect(refund.outcome).toBe('unmatched');
    expect(refund.reasons[0]).toBe('Not ranked: no word of the request is in its name, description, parameters or group.');
    // "weather" is only in the eager getWeather, which the search does not index: it cannot help.
    expect(refund.reasons).toContain('“weather” is in no tool of the catalog: it cannot help any tool.');
    expect(cutSentence(await index.explain('days', { topK: 1, minScore: 0 }))).toBe('topK 1 cuts after rank 1: 1 more matched.');
  });

  it('in the panel: the server settings, the ranked tools, the cut line and the expected tool', async () => {
    stubCatalog();
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl="/api/tools" initialOpen />);
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    await openTab(root, 'Search');
    await waitFor(() => expect(root.querySelector('[data-testid="playground-setup"]')?.textContent).toContain('search mode'));
    const request = root.querySelector('input[aria-label="Request"]') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(request, { target: { value: 'forecast for the next days' } });
    });
    await waitFor(() => expect(root.querySelectorAll('[data-testid="playground-row"]').length).toBeGreaterThan(0));
    const first = root.querySelector('[data-testid="playground-row"]') as HTMLElement;
    expect(first.getAttribute('data-tool')).toBe('getForecast');
    expect([...first.querySelectorAll('.cw-match')].map((match) => match.getAttribute('data-word'))).toEqual(['forecast', 'days']);
    await act(async () => {
      fireEvent.change(root.querySelector('input[aria-label="topK"]') as HTMLInputElement, { target: { value: '1' } });
      fireEvent.change(root.querySelector('input[aria-label="minScore"]') as HTMLInputElement, { target: { value: '0' } });
      fireEvent.change(root.querySelector('select[aria-label="Expected tool"]') as HTMLSelectElement, {
        target: { value: 'listCalendarEvents' },
      });
    });
    await waitFor(() => expect(root.querySelector('[data-testid="playground-cut-line"]')?.textContent).toBe('topK 1: not returned below'));
    const expected = root.querySelector('[data-testid="playground-expected"]') as HTMLElement;
    expect(expected.getAttribute('data-outcome')).toBe('cut');
    expect(expected.textContent).toContain('past topK 1');
  });
});

describe('unused tools', () => {
  it('counts the turns since a discovered tool was last called, and the requests and tokens it cost since', async () => {
    const client = await approvedChat();
    await client.sendMessage('forecast and refund');
    await client.sendMessage('refund it');
    client.addToolApprovalResponse({ id: 'approve-1', approved: true });
    await vi.waitFor(() => expect(callState(client.getSnapshot().messages, 'refund1')?.state).toBe('output-available'));
    await client.sendMessage('third');
    await client.sendMessage('fourth');
    const { messages, turns } = client.getSnapshot();
    const rows = buildToolUse({ messages, turns, catalog: catalog.tools, unusedAfter: 3 });
    // getForecast: discovered and called in turn 1; turns 2 to 4 sent it in 4 requests (turn 2's two runs).
    expect(rows.find((row) => row.name === 'getForecast')).toMatchObject({
      discoveredIn: 1,
      lastCalledIn: 1,
      turnsSince: 3,
      requestsSince: 4,
      tokensPerRequest: 140,
      tokensSince: 560,
      unused: true,
    });
    // refundOrder: called in turn 2, then two turns without it.
    expect(rows.find((row) => row.name === 'refundOrder')).toMatchObject({
      lastCalledIn: 2,
      turnsSince: 2,
      requestsSince: 2,
      tokensSince: 180,
      unused: false,
    });
    expect(rows.map((row) => row.name)).toEqual(['getForecast', 'refundOrder']);
    expect(
      buildToolUse({ messages, turns, catalog: undefined, unusedAfter: 2 }).every((row) => row.unused && row.tokensSince === undefined),
    ).toBe(true);
  });
});

describe('time travel', () => {
  it('replays to any step with at most 64 reductions per move after the first pass', () => {
    const turns: TurnRecord[] = [];
    const actions = Array.from({ length: 300 }, (_, index) => ({
      at: index,
      action: { type: 'setAgentState' as const, agentState: { step: index + 1 } },
    }));
    const replay = new Replay({
      initial: { messages: [], status: 'ready', error: undefined, turns, agentState: undefined, queued: [] },
      actions,
      folded: 0,
    });
    expect(replay.stateAt(300).agentState).toEqual({ step: 300 });
    expect(replay.reductions).toBe(300);
    const before = replay.reductions;
    expect(replay.stateAt(130).agentState).toEqual({ step: 130 });
    expect(replay.stateAt(0).agentState).toBeUndefined();
    expect(replay.reductions - before).toBeLessThanOrEqual(64);
  });

  it('in the panel: before the approval the call waits for approval, while the live chat has it done; the app is untouched', async () => {
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} />);
    await act(async () => {
      await client.sendMessage('forecast and refund');
      await client.sendMessage('refund it');
    });
    await act(async () => {
      client.addToolApprovalResponse({ id: 'approve-1', approved: true });
    });
    await vi.waitFor(() => expect(callState(client.getSnapshot().messages, 'refund1')?.state).toBe('output-available'));
    const liveBefore = client.getSnapshot();

    await act(async () => {
      fireEvent.click(document.querySelector('button[aria-label="Chatwire devtools"]') as HTMLElement);
    });
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    await openTab(root, 'Time travel');
    await waitFor(() => expect(root.querySelector('[data-testid="travel-chat"]')).not.toBeNull());
    const call = () => root.querySelector('[data-testid="travel-call"][data-tool="refundOrder"]') as HTMLElement | null;
    expect(call()?.getAttribute('data-state')).toBe('output-available');

    await act(async () => {
      fireEvent.change(root.querySelector('input[aria-label="Find actions"]') as HTMLInputElement, {
        target: { value: 'approvalResponse' },
      });
    });
    const answer = root.querySelector('[data-testid="travel-action"][data-type="toolCall"]') as HTMLElement;
    expect(answer.textContent).toContain('approvalResponse (approved)');
    await act(async () => {
      fireEvent.click(answer.querySelector('button') as HTMLElement);
    });
    await act(async () => {
      fireEvent.click(root.querySelector('button[aria-label="Step back"]') as HTMLElement);
    });
    expect(call()?.getAttribute('data-state')).toBe('approval-requested');
    expect(call()?.getAttribute('data-live-state')).toBe('output-available');
    expect(call()?.textContent).toContain('approval requested');
    expect(root.querySelector('[data-testid="travel-chat"]')?.textContent).toContain('1 waiting for approval');
    // The live chat did not move.
    expect(client.getSnapshot()).toBe(liveBefore);
  });

  it('goes out with Save record and comes back with Open record, errors and all', async () => {
    const client = new ChatClient({ connection });
    const { recordHistory } = await import('@chatwire/core/shared');
    const recorder = recordHistory(client);
    await client.sendMessage('forecast and refund');
    await client.sendMessage('refund it');
    const record = chatRecordOf(client, recorder, undefined);
    const reading = readChatRecord(JSON.stringify(record));
    expect(reading.ok).toBe(true);
    const read = revivedActions((reading as { record: typeof record }).record.actions!);
    const replay = new Replay(read);
    const end = chatAtStep(replay.stateAt(replay.steps), undefined);
    expect(end.waitingForApproval).toBe(1);
    expect(actionRows(read).map((row) => row.type)).toContain('userMessage');

    // A chat error goes out as data and comes back a ChatwireError with its message.
    const failed = recordableActions({
      ...read,
      actions: [
        ...read.actions,
        {
          at: 1,
          action: {
            type: 'failed',
            error: Object.assign(new (await import('@chatwire/core')).ChatwireError('network', 'offline')),
            now: 1,
          },
        },
      ],
    });
    const back = revivedActions(JSON.parse(JSON.stringify(failed)) as typeof failed);
    const last = new Replay(back);
    expect(last.stateAt(last.steps).error?.message).toBe('offline');
    expect(last.stateAt(last.steps).error?.code).toBe('network');
  });
});

describe('discovery health in the panel', () => {
  it('lists the lazy tools worst first with findability, confusions and tokens', async () => {
    stubCatalog();
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl="/api/tools" initialOpen />);
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    await openTab(root, 'Health');
    await waitFor(() => expect(root.querySelectorAll('[data-testid="health-row"]')).toHaveLength(4));
    const rows = [...root.querySelectorAll('[data-testid="health-row"]')];
    const figures = rows.map((row) => Number(row.getAttribute('data-findability')));
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    expect(rows.map((row) => row.getAttribute('data-tool'))).not.toContain('getWeather');
    // Each row's definition cost is the catalog's count for that tool.
    const tokensOf = (name: string) =>
      root.querySelector(`[data-testid="health-row"][data-tool="${name}"] [data-testid="health-tokens"]`)?.textContent;
    expect([tokensOf('getForecast'), tokensOf('listCalendarEvents'), tokensOf('refundOrder'), tokensOf('trackShipment')]).toEqual([
      '140',
      '120',
      '90',
      '80',
    ]);
  });
});
