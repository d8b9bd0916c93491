import { act, cleanup, render, screen } from '@testing-library/react';
import { ChatClient, type ChatConnection, type ChatMessage } from '@chatwire/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageList, progressLabel, toolProgressByCall } from '../src/index.js';
import { assistant, toolCall } from './parts.js';

afterEach(cleanup);

/** The first run loads the client's stream reader lazily: on a busy machine that takes more than waitFor's default second. */
const WAIT = { timeout: 10_000 };

/** A gate the test opens to let the fake server go on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('tool progress (MCP progress notifications)', () => {
  it('reaches the running call’s card from the stream, without the app declaring a data part, and leaves it when the call is done', async () => {
    const first = gate();
    const second = gate();
    const finish = gate();
    const progress = (value: unknown) => ({ type: 'CUSTOM', name: 'chatwire.mcp.tool_progress', value });
    const connection: ChatConnection = {
      async *run({ threadId, runId }) {
        yield { type: 'RUN_STARTED', threadId, runId };
        yield {
          type: 'TOOL_CALL_START',
          toolCallId: 'c1',
          toolCallName: 'everything__trigger-long-running-operation',
          parentMessageId: 'a1',
        };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"duration":2,"steps":4}' };
        yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
        yield { type: 'CUSTOM', name: 'chatwire.tool_executing', value: { toolCallId: 'c1' } };
        yield progress({ id: 'c1', data: { toolCallId: 'c1', server: 'everything', progress: 1, total: 4, message: '<b>step</b> one' } });
        await first.opened;
        // Malformed reports are ignored, not drawn: a missing progress, a foreign call.
        yield progress({ id: 'c1', data: { toolCallId: 'c1', total: 4 } });
        yield progress({ id: 'c9', data: { toolCallId: 'c9', progress: 3, total: 4 } });
        await second.opened;
        yield progress({ id: 'c1', data: { toolCallId: 'c1', server: 'everything', progress: 3, total: 4 } });
        await finish.opened;
        yield { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"content":[{"type":"text","text":"done"}]}' };
        yield { type: 'RUN_FINISHED', threadId, runId };
      },
    };
    const client = new ChatClient({ connection });
    const empty: readonly ChatMessage[] = [];
    const view = render(<MessageList messages={empty} />);
    const rerender = () => view.rerender(<MessageList messages={client.getSnapshot().messages} />);
    const sent = client.sendMessage('run the long operation');

    const dataParts = () =>
      client
        .getSnapshot()
        .messages.at(-1)
        ?.parts.filter((part) => part.type === 'data') ?? [];
    const progressOf = () => (dataParts()[0] as { data?: { progress?: unknown } } | undefined)?.data?.progress;
    await act(async () => {
      await vi.waitFor(() => expect(dataParts()).toHaveLength(1), WAIT);
      rerender();
    });
    // Kept in the snapshot as a data part of the assistant message, one per call.
    const kept = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.filter((part) => part.type === 'data');
    expect(kept).toEqual([
      {
        type: 'data',
        name: 'chatwire.mcp.tool_progress',
        id: 'c1',
        data: { toolCallId: 'c1', server: 'everything', progress: 1, total: 4, message: '<b>step</b> one' },
      },
    ]);
    const bar = () => screen.getByTestId('tool-progress');
    expect(bar().textContent).toBe('1 of 4 (25%) · <b>step</b> one');
    // The server's text is text: no element came from it.
    expect(bar().querySelector('b')).toBeNull();
    expect((bar().querySelector('progress') as HTMLProgressElement).value).toBe(1);
    expect((bar().querySelector('progress') as HTMLProgressElement).max).toBe(4);

    await act(async () => {
      first.open();
      await vi.waitFor(() => expect(progressOf()).toBeUndefined(), WAIT);
      rerender();
    });
    // The report without a progress replaced the first part; the card draws nothing it cannot read.
    expect(screen.queryByTestId('tool-progress')).toBeNull();
    await act(async () => {
      second.open();
      await vi.waitFor(() => expect(progressOf()).toBe(3), WAIT);
      rerender();
    });
    expect(screen.getAllByTestId('tool-progress')).toHaveLength(1);
    expect(bar().textContent).toBe('3 of 4 (75%)');
    // The data part is drawn on the card only, never on its own (no renderPart needed).
    expect(screen.getByRole('log').textContent).not.toContain('chatwire.mcp.tool_progress');

    await act(async () => {
      finish.open();
      await sent;
      rerender();
    });
    expect(screen.getByTestId('tool-call').getAttribute('data-outcome')).toBe('done');
    expect(screen.queryByTestId('tool-progress')).toBeNull();
  });

  it('reads reports defensively and words them', () => {
    const parts = [
      { type: 'data' as const, name: 'chatwire.mcp.tool_progress', id: 'a', data: { toolCallId: 'a', progress: 2 } },
      {
        type: 'data' as const,
        name: 'chatwire.mcp.tool_progress',
        id: 'b',
        data: { toolCallId: 'b', progress: 5, total: 0, message: 'x'.repeat(900) },
      },
      { type: 'data' as const, name: 'chatwire.mcp.tool_progress', id: 'c', data: { toolCallId: 'c', progress: Number.NaN } },
      { type: 'data' as const, name: 'chatwire.mcp.tool_progress', id: 'd', data: 'not an object' },
      { type: 'data' as const, name: 'something-else', id: 'e', data: { toolCallId: 'e', progress: 1 } },
    ];
    const read = toolProgressByCall(parts);
    expect([...read.keys()]).toEqual(['a', 'b']);
    expect(progressLabel(read.get('a')!)).toBe('2');
    // A total of 0 is no total; a long message is cut to 500 characters.
    expect(read.get('b')?.total).toBeUndefined();
    expect(read.get('b')?.message).toHaveLength(500);
    expect(progressLabel({ toolCallId: 'x', progress: 7, total: 5 })).toBe('7 of 5 (100%)');
  });

  it('shows an indeterminate bar without a total, and nothing on a finished call', () => {
    const running = toolCall({ toolCallId: 'r1', toolName: 'slow', state: 'executing', input: {} });
    const done = toolCall({
      toolCallId: 'd1',
      toolName: 'slow',
      state: 'output-available',
      input: {},
      result: { state: 'complete', output: { ok: true }, content: '{"ok":true}' },
    });
    const data = (id: string) => ({
      type: 'data' as const,
      name: 'chatwire.mcp.tool_progress',
      id,
      data: { toolCallId: id, progress: 3, message: 'Working' },
    });
    render(<MessageList messages={[assistant('a1', [running, done, data('r1'), data('d1')])]} />);
    const bars = screen.getAllByTestId('tool-progress');
    expect(bars).toHaveLength(1);
    expect(bars[0]!.closest('[data-testid="tool-call"]')?.getAttribute('data-state')).toBe('executing');
    expect(bars[0]!.textContent).toBe('3 · Working');
    expect((bars[0]!.querySelector('progress') as HTMLProgressElement).hasAttribute('value')).toBe(false);
  });
});
