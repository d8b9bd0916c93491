import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Event, RunAgentInput } from '@ag-ui/core';
import { ChatClient, type ChatConnection } from '@chatwire/core';
import { readChatRecord, runRecord, type ChatRecord } from '@chatwire/core/shared';
import { ChatwireDevtools } from '@chatwire/devtools/production';

const usage = (runId: string) => ({
  runId,
  step: 1,
  toolsSent: ['getWeather', '__lazy__tool__discovery__'],
  toolsDeferred: ['trackShipment'],
  newlyDiscovered: [],
  tokens: { sent: 300, allEager: 2_000, saved: 1_700, discoveryTool: 60, discoveryRoundTrips: 30, net: 1_670 },
  counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
  eagerWouldBeCheaper: false,
});

function eventsOf(threadId: string, runId: string, turn: number): Event[] {
  return [
    { type: 'RUN_STARTED', threadId, runId } as Event,
    { type: 'TEXT_MESSAGE_START', messageId: `m${turn}`, role: 'assistant' } as Event,
    { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${turn}`, delta: `<img src=x onerror="window.hacked=1"> answer ${turn}` } as Event,
    { type: 'TEXT_MESSAGE_END', messageId: `m${turn}` } as Event,
    { type: 'CUSTOM', name: 'chatwire.model_call_usage', value: usage(runId) } as Event,
    { type: 'RUN_FINISHED', threadId, runId } as Event,
  ];
}

const connection: ChatConnection = {
  async *run(input) {
    const turn = input.messages.filter((message) => message.role === 'user').length;
    yield* eventsOf(input.threadId, input.runId, turn);
  },
};

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot as ShadowRoot;
const inPanel = (testId: string) => shadow()?.querySelector(`[data-testid="${testId}"]`);
const buttonNamed = (name: string) =>
  [...shadow().querySelectorAll('button')].find((button) => button.textContent === name) as HTMLButtonElement;

/** Opens `text` as the file `name` through the panel's file input, and waits until the panel names the file. */
async function openFile(text: string, name = 'record.json') {
  const input = inPanel('devtools-record-file') as HTMLInputElement;
  act(() => {
    fireEvent.change(input, { target: { files: [new File([text], name, { type: 'application/json' })] } });
  });
  await waitFor(() =>
    expect(`${inPanel('devtools-record-banner')?.textContent ?? ''}${inPanel('devtools-record-error')?.textContent ?? ''}`).toContain(name),
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.restoreAllMocks();
});

async function panelFor(client: ChatClient | undefined) {
  render(<ChatwireDevtools client={client} mode="embedded" />);
  await waitFor(() => expect(inPanel('devtools-record')).toBeTruthy());
}

describe("devtools saves a chat's record and opens saved ones", () => {
  it('Save record downloads the events, the settled snapshots and the accounting; opening it shows the same chat', async () => {
    const client = new ChatClient({ connection, id: 'chat_saved' });
    await panelFor(client);
    await act(async () => {
      await client.sendMessage('first');
      await client.sendMessage('second');
    });
    let saved: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => ((saved = blob as Blob), 'blob:record'));
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(buttonNamed('Save record'));
    expect(clicked).toHaveBeenCalledTimes(1);
    const reading = readChatRecord(
      await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(saved!);
      }),
    );
    expect(reading.ok).toBe(true);
    const record = (reading as { record: ChatRecord }).record;
    expect(record).toMatchObject({ source: 'devtools', chatId: 'chat_saved' });
    expect(record.history.map((turn) => turn.events.map((entry) => entry.event.type))).toEqual([
      eventsOf('t', 'r', 1).map((event) => event.type),
      eventsOf('t', 'r', 2).map((event) => event.type),
    ]);
    // One snapshot each time the chat settled, the last with both answers.
    expect(record.snapshots).toHaveLength(2);
    expect(record.snapshots[1]!.messages).toHaveLength(4);
    expect(record.accounting.turns.map((turn) => turn.modelCalls.length)).toEqual([1, 1]);
    // Both turns' savings, once the panel caught up (it refreshes at most 5 times a second).
    await waitFor(() => expect(inPanel('savings-conversation')?.getAttribute('data-net')).toBe(String(2 * 1_670)));
    const liveNet = inPanel('savings-conversation')?.getAttribute('data-net');

    // A new, empty chat; the saved record opened in its place shows what the saved chat showed.
    cleanup();
    await panelFor(new ChatClient({ connection, id: 'chat_new' }));
    expect(inPanel('savings-conversation')?.getAttribute('data-net')).not.toBe(liveNet);
    await openFile(JSON.stringify(record), 'saved.json');
    expect(inPanel('devtools-record-banner')?.textContent).toContain('saved.json');
    expect(inPanel('devtools-record-banner')?.textContent).toContain('chat_saved');
    expect(inPanel('savings-conversation')?.getAttribute('data-net')).toBe(liveNet);
    const turnOptions = [...shadow().querySelectorAll('select[aria-label="Turn"] option')].map((option) => option.textContent);
    expect(turnOptions).toEqual(['1', '2 (latest)']);
    // The record's text is shown as text: no element from it.
    expect(shadow().querySelector('img')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();

    fireEvent.click(buttonNamed('Back to live chat'));
    await waitFor(() => expect(inPanel('devtools-record-banner')).toBeNull());
    expect(shadow().querySelector('select[aria-label="Turn"] option')?.textContent).toBe('none yet');
  });

  it("opens a server's run record: the messages rebuilt from the run's events, the accounting as the server counted", async () => {
    const input = {
      threadId: 'thread_server',
      runId: 'run_1',
      messages: [{ id: 'u1', role: 'user', content: 'hello' }],
      tools: [],
      context: [],
    } as unknown as RunAgentInput;
    const record = runRecord({
      input,
      startedAt: 1,
      events: eventsOf('thread_server', 'run_1', 1).map((event, index) => ({ at: 10 + index, event })),
    });
    await panelFor(undefined);
    await openFile(JSON.stringify(record), 'thread_server--run_1.chatwire-record.json');
    expect(inPanel('devtools-record-banner')?.textContent).toContain('one server run');
    expect(shadow().querySelector('select[aria-label="Turn"] option')?.textContent).toBe('1 (latest)');
    const eventsTab = [...shadow().querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Events') as HTMLElement;
    fireEvent.click(eventsTab);
    await waitFor(() => expect(shadow().textContent).toContain('RUN_FINISHED'));
    expect(shadow().textContent).toContain('TEXT_MESSAGE_CONTENT');
  });

  it('a file that is not a record is refused with its reason; the live chat stays', async () => {
    const client = new ChatClient({ connection, id: 'chat_live' });
    await panelFor(client);
    await openFile('{"format":"something else"}', 'notes.json');
    expect(inPanel('devtools-record-error')?.textContent).toContain('notes.json: The file is not a chat record');
    expect(inPanel('devtools-record-banner')).toBeNull();
    await openFile('not json at all', 'broken.json');
    expect(inPanel('devtools-record-error')?.textContent).toContain('not JSON');
    expect(buttonNamed('Save record')).toBeTruthy();
  });
});
