import { codeModeDevtoolsView, codeModeEvents } from '@chatwire/code-mode/client';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ChatClient, type ChatConnection } from '@chatwire/core';
import { ChatwireDevtools, type DevtoolsView } from '@chatwire/devtools/production';

/**
 * A server in miniature: turn 1 discovers `trackShipment` (recorded as a discovery call and its
 * result), and every run reports a hand-written accounting record.
 */
const connection: ChatConnection = {
  async *run(input) {
    const { threadId, runId } = input;
    const turn = input.messages.filter((message) => message.role === 'user').length;
    yield { type: 'RUN_STARTED', threadId, runId };
    if (turn === 1) {
      yield { type: 'TOOL_CALL_START', toolCallId: 'd1', toolCallName: '__lazy__tool__discovery__', parentMessageId: 'a1' };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: 'd1', delta: '{"toolNames":["trackShipment"]}' };
      yield { type: 'TOOL_CALL_END', toolCallId: 'd1' };
      yield { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'd1', content: '{"discovered":["trackShipment"]}' };
    }
    yield { type: 'TEXT_MESSAGE_START', messageId: `m${turn}`, role: 'assistant' };
    yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${turn}`, delta: `<img src=x onerror="window.hacked=1"> answer ${turn}` };
    yield { type: 'TEXT_MESSAGE_END', messageId: `m${turn}` };
    yield {
      type: 'CUSTOM',
      name: 'chatwire.model_call_usage',
      value: {
        runId,
        step: 1,
        toolsSent: turn === 1 ? ['getWeather', '__lazy__tool__discovery__'] : ['getWeather', '__lazy__tool__discovery__', 'trackShipment'],
        toolsDeferred: turn === 1 ? ['trackShipment', 'sendEmail'] : ['sendEmail'],
        newlyDiscovered: turn === 1 ? [] : ['trackShipment'],
        tokens: { sent: 300, allEager: 2_000, saved: 1_700, discoveryTool: 60, discoveryRoundTrips: 30, net: 1_670 },
        counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
        eagerWouldBeCheaper: false,
      },
    };
    yield { type: 'RUN_FINISHED', threadId, runId };
  },
};

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot ?? null;

describe('the devtools panel', () => {
  it('while closed only records the history; opened late it still shows the turns since it mounted', async () => {
    const client = new ChatClient({ connection });
    const subscribe = vi.spyOn(client, 'subscribe');
    const inspect = vi.spyOn(client, 'inspect');

    render(<ChatwireDevtools client={client} catalogUrl={undefined} />);
    await act(async () => {
      await client.sendMessage('first');
      await client.sendMessage('second');
    });
    expect(shadow()).toBeNull();
    // Closed: one inspector records the history; nothing renders with the chat.
    expect(subscribe).not.toHaveBeenCalled();
    expect(inspect).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
    await waitFor(() => expect(shadow()?.querySelector('[data-testid="chatwire-devtools"]')).not.toBeNull());
    // The panel is its own React root: its effects run on its own schedule. It follows the chat
    // through the inspection stream alone.
    await waitFor(() => expect(inspect).toHaveBeenCalledTimes(2));
    expect(subscribe).not.toHaveBeenCalled();

    const root = shadow() as ShadowRoot;
    // Styles live in the shadow root only.
    expect(root.querySelector('style')?.textContent).toContain('.cw-root');
    expect(document.head.innerHTML).not.toContain('cw-root');
    // Turn 1 discovered trackShipment; sendEmail is still undiscovered.
    const row = (name: string) => root.querySelector(`[data-testid="devtools-tool-row"][data-tool="${name}"]`);
    expect(row('trackShipment')?.getAttribute('data-status')).toBe('discovered');
    expect(row('sendEmail')?.getAttribute('data-status')).toBe('undiscovered');

    // The Events view reads the history devtools recorded before the panel existed.
    const select = root.querySelector('select[aria-label="Turn"]') as HTMLSelectElement;
    await act(async () => {
      fireEvent.change(select, { target: { value: '1' } });
    });
    const eventsTab = [...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Events') as HTMLElement;
    await act(async () => {
      fireEvent.click(eventsTab);
    });
    const types = [...root.querySelectorAll('[data-testid="event-row"]')].map((element) => element.getAttribute('data-type'));
    expect(types).toContain('TOOL_CALL_RESULT');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    // Payloads are text: the markup in the answer created no element.
    expect(root.querySelector('img')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('shows the whole-request record next to the per-turn figures, a cost labelled as one, with cached and uncached input per request', async () => {
    // One request that loaded a tool by calling it (call-to-load) on a catalog too small to save anything.
    const client = new ChatClient({
      connection: {
        async *run({ threadId, runId }) {
          yield { type: 'RUN_STARTED', threadId, runId };
          yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'trackShipment', parentMessageId: 'a1' };
          yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' };
          yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
          yield {
            type: 'TOOL_CALL_RESULT',
            messageId: 't1',
            toolCallId: 'c1',
            content: '{"error":"bad"}',
            metadata: { chatwire: { outcome: 'error', error: 'bad', discoveredTools: ['trackShipment'], undiscovered: true } },
          };
          yield {
            type: 'CUSTOM',
            name: 'chatwire.model_call_usage',
            value: {
              runId,
              step: 1,
              toolsSent: ['getWeather', '__lazy__tool__discovery__'],
              toolsDeferred: ['trackShipment'],
              newlyDiscovered: [],
              tokens: {
                sent: 600,
                allEager: 500,
                saved: -100,
                discoveryTool: 200,
                discoveryRoundTrips: 0,
                net: -100,
                input: 1_000,
                system: 40,
              },
              inputSource: 'provider',
              counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
              eagerWouldBeCheaper: true,
              discoveryStep: false,
              providerUsage: { inputTokens: 1_000 },
            },
          };
          yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success' } };
        },
      },
    });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} />);
    await act(async () => {
      await client.sendMessage('track it');
    });
    expect(client.getSnapshot().conversationUsage).toMatchObject({
      requests: { lazy: 1, allEager: 1 },
      input: { lazy: 1_000, allEager: 900 },
      net: -100,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
    await waitFor(() => expect(shadow()?.querySelector('[data-testid="savings-requests"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    const requests = root.querySelector('[data-testid="savings-requests"]') as HTMLElement;
    expect(requests.textContent).toBe(
      'Whole requests: input 11% more, 1 request (1 with every tool up front), warm cache 102% of the up-front cost (modelled)',
    );
    expect(requests.className).toContain('cw-bad');
    // A negative saving reads as a cost, in the colour of a cost.
    const headline = root.querySelector('[data-testid="savings-conversation"]') as HTMLElement;
    expect(headline.textContent).toBe('Discovery cost 100 more tokens');
    expect(headline.className).toContain('cw-bad');
    // The discovered tool was never used: the refused call does not count as a use.
    expect(root.querySelector('[data-testid="count-unused"]')?.textContent).toBe('1 discovered, never used');

    const tokensTab = [...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Tokens') as HTMLElement;
    await act(async () => {
      fireEvent.click(tokensTab);
    });
    const input = root.querySelector('[data-testid="conversation-input"]') as HTMLElement;
    expect(input.textContent).toContain('100 more (11.1%)');
    expect(input.querySelector('.cw-bad')).not.toBeNull();
    expect(root.querySelector('[data-testid="conversation-requests"]')?.textContent).toContain('same');
    // Warm start: tools and system prompt cached (640), the rest not; modelled, since the provider reported no cache.
    const cache = root.querySelector('[data-testid="call-cache"]') as HTMLElement;
    expect(cache.textContent).toBe('640 / 360 (modelled)');
    expect(cache.getAttribute('data-source')).toBe('modelled');
    await act(async () => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
  });

  it('says a cost in words wherever its colour says one: tool tokens saved, but whole requests that cost more', async () => {
    // Turn 1: the model discovered a tool (call 1), then called it in a request that existed only for discovery
    // (call 2). Tool tokens: 1,700 + 1,495 saved. Whole requests: 5,000 + 5,200 sent, against 5,000 - 300 + 2,000
    // = 6,700 all up front (call 2 would not have existed), so 3,500 more input tokens.
    const usage = (runId: string, step: number, tokens: Record<string, number>, discoveryStep: boolean) => ({
      type: 'CUSTOM' as const,
      name: 'chatwire.model_call_usage',
      value: {
        runId,
        step,
        toolsSent: ['getWeather', '__lazy__tool__discovery__'],
        toolsDeferred: ['trackShipment'],
        newlyDiscovered: [],
        tokens,
        counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
        eagerWouldBeCheaper: false,
        discoveryStep,
      },
    });
    const client = new ChatClient({
      connection: {
        async *run({ threadId, runId }) {
          yield { type: 'RUN_STARTED', threadId, runId };
          yield usage(
            runId,
            1,
            { sent: 300, allEager: 2_000, saved: 1_700, discoveryTool: 60, discoveryRoundTrips: 0, net: 1_700, input: 5_000 },
            false,
          );
          yield usage(
            runId,
            2,
            { sent: 400, allEager: 2_000, saved: 1_600, discoveryTool: 60, discoveryRoundTrips: 105, net: 1_495, input: 5_200 },
            true,
          );
          yield { type: 'RUN_FINISHED', threadId, runId };
        },
      },
    });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} initialOpen />);
    await act(async () => {
      await client.sendMessage('track it');
    });
    await waitFor(() => expect(shadow()?.querySelector('[data-testid="savings-caution"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    const headline = root.querySelector('[data-testid="savings-conversation"]') as HTMLElement;
    expect(headline.textContent).toBe('Discovery saved 3,195 tokens');
    expect(headline.className).toContain('cw-good');
    expect(headline.className).not.toContain('cw-bad');
    const caution = root.querySelector('[data-testid="savings-caution"]') as HTMLElement;
    expect(caution.textContent).toBe('but whole requests cost 3,500 more input tokens');
    expect(caution.className).toContain('cw-bad');
  });

  it('marks the events that became data parts in the Events view', async () => {
    const client = new ChatClient({
      dataParts: { weather: true },
      connection: {
        async *run({ threadId, runId }) {
          yield { type: 'RUN_STARTED', threadId, runId };
          yield { type: 'CUSTOM', name: 'weather', value: { id: 'w1', data: { celsius: 21 } } };
          yield { type: 'CUSTOM', name: 'other', value: { id: 'x' } };
          yield { type: 'RUN_FINISHED', threadId, runId };
        },
      },
    });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} />);
    await act(async () => {
      await client.sendMessage('weather?');
    });
    expect(client.getSnapshot().messages[1]?.parts).toEqual([{ type: 'data', name: 'weather', id: 'w1', data: { celsius: 21 } }]);
    fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    const eventsTab = [...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Events') as HTMLElement;
    await act(async () => {
      fireEvent.click(eventsTab);
    });
    await waitFor(() => expect(root.querySelectorAll('[data-testid="event-row"]').length).toBe(4));
    const marked = [...root.querySelectorAll('[data-testid="data-part-row"]')].map((chip) => chip.textContent);
    expect(marked).toEqual(['data part #w1']);
    await act(async () => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
  });

  it("shows Code Mode's view (registered from @chatwire/code-mode/client) only once a model call was sent Code Mode", async () => {
    const share = (discovered: string[]) => ({
      apis: {
        eager: ['getTime'],
        discovered,
        undiscovered: ['getWeather'].filter((name) => !discovered.includes(name)),
        newlyDiscovered: discovered,
      },
      tokens: {
        prompt: 400,
        toolDefinitions: 100,
        sent: 500,
        allEager: 1_500,
        saved: 1_000,
        discoveryRoundTrips: discovered.length * 120,
        net: 1_000 - discovered.length * 120,
        code: 0,
        results: 0,
      },
      counting: { method: 'o200k', errorBound: 0 },
    });
    const usageEvent = (runId: string, step: number, codeMode: unknown) => ({
      type: 'CUSTOM',
      name: 'chatwire.model_call_usage',
      value: {
        runId,
        step,
        toolsSent: ['execute_typescript', 'discover_tools'],
        toolsDeferred: [],
        newlyDiscovered: [],
        tokens: { sent: 200, allEager: 200, saved: 0, discoveryTool: 0, discoveryRoundTrips: 0, net: 0 },
        counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
        eagerWouldBeCheaper: false,
        ...(codeMode ? { codeMode } : {}),
      },
    });
    const code = (type: string, value: Record<string, unknown>) => ({
      type: 'CUSTOM',
      name: `chatwire.code_mode.${type}`,
      value: { executionId: 'e1', toolCallId: 'x1', ...value },
    });
    const client = new ChatClient({
      connection: {
        async *run({ threadId, runId, messages }) {
          yield { type: 'RUN_STARTED', threadId, runId };
          if (messages.filter((message) => message.role === 'user').length === 1) {
            yield usageEvent(runId, 1, undefined);
          } else {
            yield usageEvent(runId, 1, share([]));
            yield { type: 'TOOL_CALL_START', toolCallId: 'x1', toolCallName: 'execute_typescript', parentMessageId: 'a1' };
            yield { type: 'TOOL_CALL_ARGS', toolCallId: 'x1', delta: '{"typescriptCode":"return 1"}' };
            yield { type: 'TOOL_CALL_END', toolCallId: 'x1' };
            yield code('execution_started', {
              code: 'return 1',
              bindings: ['external_getTime', 'external_getWeather'],
              undiscovered: [],
              discoveryKnown: true,
            });
            yield code('external_call', { callId: 'x1.1', toolName: 'getWeather', input: { city: 'Paris' } });
            yield code('external_result', { callId: 'x1.1', toolName: 'getWeather', output: { celsius: 18 }, durationMs: 5 });
            yield code('execution_finished', { success: true, durationMs: 9, toolCalls: 1, logLines: 0, truncated: false });
            yield { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'x1', content: '{"success":true,"result":1}' };
            yield usageEvent(runId, 2, share(['getWeather']));
          }
          yield { type: 'RUN_FINISHED', threadId, runId };
        },
      },
      // The app turned Code Mode on: executions reach the parts the view reads.
      customEvents: [codeModeEvents],
    });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} views={[codeModeDevtoolsView]} />);
    await act(async () => {
      await client.sendMessage('no code yet');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    const tabNames = () => [...root.querySelectorAll('[role="tab"]')].map((tab) => tab.textContent);
    expect(tabNames()).toEqual(['Tools', 'Tokens', 'Timeline', 'Events']);

    await act(async () => {
      await client.sendMessage('use code');
    });
    await waitFor(() => expect(tabNames()).toEqual(['Tools', 'Tokens', 'Timeline', 'Events', 'Code Mode']));
    await act(async () => {
      fireEvent.click([...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Code Mode') as HTMLElement);
    });
    const api = (name: string) => root.querySelector(`[data-testid="code-api-row"][data-api="${name}"]`);
    await waitFor(() => expect(api('getWeather')?.getAttribute('data-status')).toBe('discovered'));
    expect(api('getTime')?.getAttribute('data-status')).toBe('eager');
    expect(api('getWeather')?.textContent).toContain('turn 2, model call 2');
    expect(root.querySelector('[data-testid="code-savings-turn"]')?.getAttribute('data-net')).toBe(String(1_000 + 880));
    expect(root.querySelector('[data-testid="code-execution-row"]')?.getAttribute('data-state')).toBe('succeeded');
    // The first model call of the turn had not discovered it yet.
    await act(async () => {
      fireEvent.change(root.querySelector('select[aria-label="Code Mode model call"]') as HTMLSelectElement, { target: { value: '0' } });
    });
    expect(api('getWeather')?.getAttribute('data-status')).toBe('undiscovered');
  });

  it('renders the views the app lists (views): a tab each once it applies, its blocks as text, its choices passed back', async () => {
    const renders: { turn: number; choices: Readonly<Record<string, string>> }[] = [];
    const countView: DevtoolsView = {
      id: 'count',
      label: 'Counts',
      load: async () => ({
        // Applies once the chat has two turns.
        available: ({ turns }) => turns.length >= 2,
        render: (input) => {
          renders.push({ turn: input.turn, choices: input.choices });
          const size = input.choices['size'] ?? 'small';
          return [
            { type: 'chips', label: 'Counts', chips: [{ text: `${input.messages.length} messages`, testId: 'count-chip' }] },
            {
              type: 'choice',
              key: 'size',
              label: 'Size',
              value: size,
              options: [
                { value: 'small', label: 'Small' },
                { value: 'large', label: 'Large' },
              ],
            },
            { type: 'cards', cards: [{ label: 'Size', value: size, tone: 'good', testId: 'size-card', data: { size, 'Bad Key': 'x' } }] },
            {
              type: 'table',
              label: 'Rows',
              heading: 'Rows',
              columns: [{ title: 'Name' }, { title: 'n', numeric: true }],
              rows: [{ cells: [{ text: '<img src=x onerror="window.hacked=1">', tone: 'code' }, '1'], testId: 'count-row' }],
            },
          ];
        },
      }),
    };
    const brokenView: DevtoolsView = {
      id: 'broken',
      label: 'Broken',
      load: () => Promise.reject(new Error('chunk missing')),
    };
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl={undefined} views={[countView, brokenView]} />);
    await act(async () => {
      await client.sendMessage('first');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
    await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
    const root = shadow() as ShadowRoot;
    const tabNames = () => [...root.querySelectorAll('[role="tab"]')].map((tab) => tab.textContent);
    const openTab = async (name: string) =>
      act(async () => {
        fireEvent.click([...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === name) as HTMLElement);
      });
    // One turn: the Counts view does not apply yet; the view that failed to load keeps its tab, to say why.
    await waitFor(() => expect(tabNames()).toEqual(['Tools', 'Tokens', 'Timeline', 'Events', 'Broken']));
    await openTab('Broken');
    expect(root.querySelector('.cw-empty')?.textContent).toBe('The Broken view could not load: chunk missing');

    await act(async () => {
      await client.sendMessage('second');
    });
    await waitFor(() => expect(tabNames()).toEqual(['Tools', 'Tokens', 'Timeline', 'Events', 'Counts', 'Broken']));
    await openTab('Counts');
    // The view reads the chat the panel shows.
    const messageCount = client.getSnapshot().messages.length;
    expect(messageCount).toBeGreaterThan(2);
    await waitFor(() => expect(root.querySelector('[data-testid="count-chip"]')?.textContent).toBe(`${messageCount} messages`));
    expect(renders.at(-1)).toEqual({ turn: 2, choices: {} });
    // Markup from a view is text; data keys React would refuse are left out.
    const row = root.querySelector('[data-testid="count-row"]');
    expect(row?.querySelector('img')).toBeNull();
    expect(row?.textContent).toContain('<img src=x');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    const card = root.querySelector('[data-testid="size-card"]');
    expect(card?.getAttribute('data-size')).toBe('small');
    expect(card?.querySelector('strong')?.className).toBe('cw-good');
    expect(root.querySelector('h3')?.textContent).toBe('Rows');
    // A pick goes back to the view, which renders with it.
    await act(async () => {
      fireEvent.change(root.querySelector('select[aria-label="Size"]') as HTMLSelectElement, { target: { value: 'large' } });
    });
    expect(renders.at(-1)).toEqual({ turn: 2, choices: { size: 'large' } });
    expect(root.querySelector('[data-testid="size-card"]')?.getAttribute('data-size')).toBe('large');
  });

  it('closes with Escape and stops listening to the chat (only the history recorder stays)', async () => {
    const client = new ChatClient({ connection });
    await client.sendMessage('first');
    let observers = 0;
    const inspect = client.inspect.bind(client);
    vi.spyOn(client, 'inspect').mockImplementation((observer) => {
      observers++;
      const stop = inspect(observer);
      return () => {
        observers--;
        stop();
      };
    });
    const { unmount } = render(<ChatwireDevtools client={client} initialOpen />);
    await waitFor(() => expect(observers).toBe(2));
    // Escape pressed in the page is the page's own (e.g. stopping a response): the panel stays.
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
    });
    expect(shadow()?.querySelector('[data-testid="chatwire-devtools"]')).toBeTruthy();
    const tab = shadow()?.querySelector('[role="tab"]') as HTMLElement;
    await act(async () => {
      fireEvent.keyDown(tab, { key: 'Escape' });
    });
    expect(shadow()).toBeNull();
    expect(observers).toBe(1);
    unmount();
    expect(observers).toBe(0);
  });

  it('closes from its own Close button and reopens without any React error (no synchronous unmount during render)', async () => {
    const errors = vi.spyOn(console, 'error');
    const client = new ChatClient({ connection });
    await client.sendMessage('first');
    render(<ChatwireDevtools client={client} initialOpen />);
    for (let round = 0; round < 2; round++) {
      await waitFor(() => expect(shadow()?.querySelector('[aria-label="Close devtools"]')).toBeTruthy());
      const close = shadow()?.querySelector('[aria-label="Close devtools"]') as HTMLElement;
      await act(async () => {
        fireEvent.click(close);
      });
      expect(shadow()).toBeNull();
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Chatwire devtools' }));
      });
    }
    await waitFor(() => expect(shadow()?.querySelector('[data-testid="chatwire-devtools"]')).toBeTruthy());
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("docks where the user puts it, gives a docked panel's room back to the page, and remembers it across reloads", async () => {
    // A desktop window: the right dock leaves the page its 768 px (jsdom's own window is 1024 px wide).
    const width = window.innerWidth;
    window.innerWidth = 1400;
    onTestFinished(() => {
      window.innerWidth = width;
    });
    const client = new ChatClient({ connection });
    const host = () => document.querySelector('[data-chatwire-devtools]') as HTMLElement;
    const first = render(<ChatwireDevtools client={client} initialOpen initialDock="bottom" />);
    await waitFor(() => expect(shadow()?.querySelector('[aria-label="Dock on the right"]')).toBeTruthy());
    expect(host().dataset['dock']).toBe('bottom');
    const height = Number.parseInt(host().style.height, 10);
    expect(height).toBeGreaterThan(0);
    // Docked at the bottom: the page gets the panel's height back, so the panel covers nothing.
    expect(document.body.style.paddingBottom).toBe(`${height}px`);
    expect(document.documentElement.style.getPropertyValue('--chatwire-devtools-bottom')).toBe(`${height}px`);

    await act(async () => {
      fireEvent.click(shadow()?.querySelector('[aria-label="Dock on the right"]') as HTMLElement);
    });
    expect(host().dataset['dock']).toBe('right');
    expect(document.body.style.paddingBottom).toBe('');
    // Resized from the keyboard on its edge: 16 px wider per arrow press.
    const docked = Number.parseInt(host().style.width, 10);
    const handle = shadow()?.querySelector('[role="separator"]') as HTMLElement;
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    });
    expect(Number.parseInt(host().style.width, 10)).toBe(docked + 16);
    expect(document.body.style.paddingRight).toBe(`${docked + 16}px`);
    first.unmount();
    // Unmounted: the page's own styles are back.
    expect(document.body.style.paddingRight).toBe('');

    // A reload: the dock, the size and the open state come back from localStorage.
    render(<ChatwireDevtools client={client} />);
    await waitFor(() => expect(host()?.dataset['dock']).toBe('right'));
    expect(Number.parseInt(host().style.width, 10)).toBe(docked + 16);
    const float = await waitFor(() => {
      const button = shadow()?.querySelector('[aria-label="Float over the page"]');
      if (!button) throw new Error('the panel has not loaded yet');
      return button as HTMLElement;
    });
    await act(async () => {
      fireEvent.click(float);
    });
    expect(host().dataset['dock']).toBe('floating');
    expect(document.body.style.paddingRight).toBe('');
  });

  it('starts from its defaults when the saved layout is not valid', async () => {
    window.localStorage.setItem('chatwire-devtools', '{"dock":"sideways","rightWidth":"wide"');
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} initialOpen initialDock="bottom" />);
    await waitFor(() => expect((document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.dataset['dock']).toBe('bottom'));
  });

  it('renders nothing from the main entry outside development builds', async () => {
    const { ChatwireDevtools: MainEntry } = await import('@chatwire/devtools');
    const client = new ChatClient({ connection });
    const { container } = render(<MainEntry client={client} initialOpen />);
    expect(container.innerHTML).toBe('');
  });
});
