import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { messageText } from '@chatwire/core';
import { useChat, type UseChatOptions } from '@chatwire/react';
import {
  Gate,
  cleanupAfterEach,
  freshRegistry,
  gatedConnection,
  lastAnswer,
  scriptedConnection,
  sseResponse,
  textAnswer,
  textAnswerEvents,
  withRegistry,
  type RunInput,
} from './helpers.tsx';

cleanupAfterEach();

/** A fetch that answers every run with a short text and records what each request carried. */
function recordingFetch(answer = (index: number) => `answer ${index + 1}`) {
  const requests: { url: string; headers: Record<string, string>; credentials: RequestCredentials | undefined; body: RunInput }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as RunInput;
    requests.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) }, credentials: init?.credentials, body });
    return sseResponse(textAnswerEvents(body.threadId, body.runId, answer(requests.length - 1)));
  });
  return { fetch, requests };
}

describe('useChat: sending', () => {
  it('attaches files: a file part to render (name, type, size, preview URL) and an AG-UI image part on the wire', async () => {
    const { fetch, requests } = recordingFetch();
    const { result } = renderHook(() => useChat({ id: 'files', fetch }), { wrapper: withRegistry(freshRegistry()) });
    const photo = new File([new Uint8Array([137, 80, 78, 71])], 'photo.png', { type: 'image/png' });
    await act(async () => {
      expect(await result.current.sendMessage({ text: 'what is this?', files: [photo] })).toEqual({ sent: true });
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const user = result.current.messages[0]!;
    // jsdom reads the file with FileReader, as a browser does.
    expect(user.parts[1]).toEqual({
      type: 'file',
      mimeType: 'image/png',
      url: 'data:image/png;base64,iVBORw==',
      filename: 'photo.png',
      size: 4,
    });
    expect(requests[0]!.body.messages[0]).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { type: 'data', value: 'iVBORw==', mimeType: 'image/png' }, metadata: { filename: 'photo.png' } },
      ],
    });
  });

  it('uses the latest uploadFile from the attachments option, and refuses files over its limits without changing anything', async () => {
    const { fetch, requests } = recordingFetch();
    const upload = vi.fn(async (file: Blob) => ({ url: `https://files.example/${(file as File).name}` }));
    const { result } = renderHook(() => useChat({ id: 'upload', fetch, attachments: { uploadFile: upload, maxFileBytes: 10 } }), {
      wrapper: withRegistry(freshRegistry()),
    });
    let refused: unknown;
    await act(async () => {
      refused = await result.current.sendMessage({ text: 'big', files: [new File([new Uint8Array(11)], 'big.bin')] });
    });
    expect(refused).toMatchObject({ sent: false, error: { code: 'file-too-large' } });
    expect(result.current.messages).toEqual([]);
    expect(upload).not.toHaveBeenCalled();
    await act(async () => {
      await result.current.sendMessage({ files: [new File(['x'], 'a.pdf', { type: 'application/pdf' })] });
    });
    expect(upload).toHaveBeenCalledTimes(1);
    expect(result.current.messages[0]!.parts).toEqual([
      { type: 'file', mimeType: 'application/pdf', url: 'https://files.example/a.pdf', filename: 'a.pdf', size: 1 },
    ]);
    expect(requests[0]!.body.messages[0]).toMatchObject({
      content: [{ type: 'document', source: { type: 'url', value: 'https://files.example/a.pdf' } }],
    });
  });

  it('sendMessage(message, { body, headers, context }) and regenerate({ body }) add to that turn only', async () => {
    const { fetch, requests } = recordingFetch();
    const { result } = renderHook(() => useChat({ id: 'per-send', fetch, body: { plan: 'free' }, headers: { 'x-plan': 'free' } }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await act(async () => {
      await result.current.sendMessage('one', {
        body: { model: 'large' },
        headers: { 'x-trace': 't1' },
        context: [{ description: 'page', value: '/cart' }],
      });
    });
    await act(async () => {
      await result.current.sendMessage('two');
    });
    await act(async () => {
      await result.current.regenerate({ body: { temperature: 0 } });
    });
    expect(requests.map((request) => request.body.forwardedProps)).toEqual([
      { plan: 'free', model: 'large' },
      { plan: 'free' },
      { plan: 'free', temperature: 0 },
    ]);
    expect(requests.map((request) => request.headers['x-trace'])).toEqual(['t1', undefined, undefined]);
    expect(requests.map((request) => request.body.context.length)).toEqual([1, 0, 0]);
  });

  it('passes credentials and fetch to the default connection, reading the latest ones for each request', async () => {
    const first = recordingFetch(() => 'from first');
    const second = recordingFetch(() => 'from second');
    type Props = Pick<UseChatOptions, 'fetch' | 'credentials'>;
    const { result, rerender } = renderHook((props: Props) => useChat({ id: 'transport', ...props }), {
      initialProps: { fetch: first.fetch, credentials: 'include' } as Props,
      wrapper: withRegistry(freshRegistry()),
    });
    const client = result.current.client;
    await act(async () => {
      await result.current.sendMessage('one');
    });
    rerender({ fetch: second.fetch, credentials: 'omit' });
    await act(async () => {
      await result.current.sendMessage('two');
    });
    expect(result.current.client).toBe(client);
    expect(first.requests.map((request) => request.credentials)).toEqual(['include']);
    expect(second.requests.map((request) => request.credentials)).toEqual(['omit']);
    expect(lastAnswer(result.current.messages)).toBe('from second');
  });

  it('edits a user message and runs again from it; clearError() dismisses a failed turn', async () => {
    let fail = false;
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as RunInput;
      if (fail) return new Response('down', { status: 503 });
      const last = body.messages.at(-1) as { content: string };
      return sseResponse(textAnswerEvents(body.threadId, body.runId, `re: ${last.content}`));
    });
    const { result } = renderHook(() => useChat({ id: 'edit', fetch }), { wrapper: withRegistry(freshRegistry()) });
    await act(async () => {
      await result.current.sendMessage('one');
    });
    await act(async () => {
      await result.current.sendMessage('two');
    });
    const firstId = result.current.messages[0]!.id;
    await act(async () => {
      await result.current.sendMessage({ text: 'one, edited', messageId: firstId });
    });
    expect(result.current.messages.map(messageText)).toEqual(['one, edited', 're: one, edited']);

    fail = true;
    await act(async () => {
      await result.current.sendMessage('three');
    });
    expect(result.current.status).toBe('error');
    expect(result.current.error?.code).toBe('http');
    act(() => result.current.clearError());
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeUndefined();
  });

  it('types declared data parts by their schemas and renders them as they arrive (replaced by id)', async () => {
    const weather = z.object({ city: z.string(), celsius: z.number() });
    const { connection } = scriptedConnection(async function* (input) {
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      yield { type: 'CUSTOM', name: 'weather', value: { id: 'w', data: { city: 'Paris', celsius: 0 } } };
      yield { type: 'CUSTOM', name: 'weather', value: { id: 'w', data: { city: 'Paris', celsius: 21 } } };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const { result } = renderHook(() => useChat({ id: 'data', connection, dataParts: { weather } }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await act(async () => {
      await result.current.sendMessage('weather?');
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const parts = result.current.messages[1]!.parts;
    expect(parts).toEqual([{ type: 'data', name: 'weather', id: 'w', data: { city: 'Paris', celsius: 21 } }]);
    for (const part of parts) {
      if (part.type === 'data') {
        expectTypeOf(part.name).toEqualTypeOf<'weather'>();
        expectTypeOf(part.data).toEqualTypeOf<{ city: string; celsius: number }>();
      }
    }
  });

  it('queues messages while busy (queue: true): visible in queued, cancellable, then sent in order', async () => {
    const gate = new Gate();
    const { connection, runs } = gatedConnection(['ok'], gate);
    const { result } = renderHook(() => useChat({ id: 'queue', connection, queue: true, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    let first: Promise<unknown> = Promise.resolve();
    let second: Promise<unknown> = Promise.resolve();
    let third: Promise<unknown> = Promise.resolve();
    await act(async () => {
      first = result.current.sendMessage('A');
      second = result.current.sendMessage('B');
      third = result.current.sendMessage('C');
    });
    await waitFor(() => expect(result.current.queued.map((item) => item.text)).toEqual(['B', 'C']));
    act(() => {
      expect(result.current.cancelQueued(result.current.queued[0]!.id)).toBe(true);
    });
    expect(await second).toMatchObject({ sent: false, error: { code: 'cancelled' } });
    await act(async () => {
      gate.open();
      await first;
      await third;
    });
    expect(result.current.queued).toEqual([]);
    expect(runs.map((input) => (input.messages.at(-1) as { content: string }).content)).toEqual(['A', 'C']);
    expect(result.current.messages.filter((message) => message.role === 'user').map(messageText)).toEqual(['A', 'C']);
  });

  it('without queue, a send while streaming is refused as busy', async () => {
    const gate = new Gate();
    const { connection } = scriptedConnection((input, _run, signal) => textAnswer(input, ['a', 'b'], { gate, signal }));
    const { result } = renderHook(() => useChat({ id: 'no-queue', connection, onError: () => {} }), {
      wrapper: withRegistry(freshRegistry()),
    });
    let refused: unknown;
    await act(async () => {
      void result.current.sendMessage('A');
      refused = await result.current.sendMessage('B');
    });
    expect(refused).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(result.current.queued).toEqual([]);
    act(() => result.current.stop());
  });
});
