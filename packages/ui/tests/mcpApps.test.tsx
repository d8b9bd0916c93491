import { cleanup, render, screen } from '@testing-library/react';
import { MCP_APP_EVENT, type ChatMessage, type McpAppView, type ToolCallPart } from '@chatwire/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageList, makeToolUI, type McpAppsChat } from '../src/index.js';
import { APP_SANDBOX, appDocument, callResultOf } from '../src/mcpApps/index.js';
import { FrameTransport } from '../src/mcpApps/frameTransport.js';
import { toolCall } from './parts.js';

afterEach(cleanup);

const app = (overrides: Partial<McpAppView> = {}): McpAppView => ({
  toolCallId: 'call_clock',
  server: 'clock',
  tool: 'get-time',
  resourceUri: 'ui://clock/app.html',
  html: '<!doctype html><html><head><title>Clock</title></head><body><p>clock</p></body></html>',
  bytes: 80,
  sha256: 'ab'.repeat(32),
  ...overrides,
});

describe("an app's document", () => {
  it('carries its policy as the first element of <head>, before anything of the app’s, whatever precedes the head', () => {
    const tricky = app({
      html: '<!-- <head><script>1</script></head> --><html><head><script>window.early = 1</script><meta charset="utf-8"></head><body></body></html>',
      csp: { connectDomains: ['https://api.example.com', '*'] },
    });
    const { srcdoc, policy } = appDocument(tricky);
    const parsed = new DOMParser().parseFromString(srcdoc, 'text/html');
    const first = parsed.head.firstElementChild;
    expect(first?.tagName).toBe('META');
    expect(first?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
    expect(first?.getAttribute('content')).toBe(policy.policy);
    expect(policy.policy).toContain('connect-src https://api.example.com;');
    expect(policy.refused.map((entry) => entry.value)).toEqual(['*']);
    expect(parsed.head.querySelectorAll('meta[http-equiv]')).toHaveLength(1);
    expect(srcdoc.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('is sandboxed with scripts and forms only: never the same origin, popups or top navigation', () => {
    expect(APP_SANDBOX.split(' ').sort()).toEqual(['allow-forms', 'allow-scripts']);
  });
});

describe('the frame transport', () => {
  /** A frame in the document and a clock the test moves. */
  function setup(options: { maxPerSecond?: number; floodAfter?: number } = {}) {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    let now = 0;
    const onFlood = vi.fn();
    const transport = new FrameTransport({ frame, onFlood, now: () => now, ...options });
    const read: unknown[] = [];
    transport.onmessage = (message) => read.push(message);
    const post = (data: unknown, source: Window | null = frame.contentWindow) =>
      window.dispatchEvent(new MessageEvent('message', { data, source }));
    return { frame, transport, read, onFlood, post, tick: (ms: number) => (now += ms) };
  }
  const note = (index: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: index } });

  it('reads 100 messages a second of an app posting 10,000 in one, drops the rest unread, and says it floods once', async () => {
    const { transport, read, onFlood, post, tick, frame } = setup();
    await transport.start();
    for (let index = 0; index < 10_000; index++) post(note(index));
    expect(read).toHaveLength(100);
    expect(transport.traffic).toMatchObject({ received: 100, dropped: 9_900, invalid: 0 });
    expect(onFlood).toHaveBeenCalledTimes(1);
    // The next second reads again.
    tick(1_000);
    post(note(10_000));
    expect(read).toHaveLength(101);
    await transport.close();
    frame.remove();
  });

  it('ignores messages from other windows and counts, without reading further, what is not JSON-RPC', async () => {
    const { transport, read, post, frame } = setup();
    await transport.start();
    post(note(1), window);
    post(note(2), null);
    post({ hello: 'world' });
    post('text');
    post(note(3));
    expect(read).toEqual([note(3)]);
    expect(transport.traffic).toMatchObject({ received: 1, invalid: 2, dropped: 0 });
    await transport.close();
    post(note(4));
    expect(read).toHaveLength(1);
    frame.remove();
  });
});

describe('a settled call, as its app reads it (callResultOf)', () => {
  it('passes an MCP result on, wraps other output, and tells errors and declined calls apart', () => {
    const done = (output: unknown) =>
      callResultOf(
        toolCall({ toolName: 'clock__get-time', state: 'output-available', result: { state: 'complete', output, content: '' } }),
      );
    expect(done({ content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' } })).toEqual({
      result: { content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' } },
    });
    expect(done({ time: '12:00' })).toEqual({
      result: { content: [{ type: 'text', text: '{"time":"12:00"}' }], structuredContent: { time: '12:00' } },
    });
    expect(
      callResultOf(toolCall({ toolName: 'x', state: 'output-error', result: { state: 'error', error: 'boom', content: '' } })),
    ).toEqual({ result: { content: [{ type: 'text', text: 'boom' }], isError: true } });
    expect(
      callResultOf(toolCall({ toolName: 'x', state: 'cancelled', result: { state: 'error', error: 'The user declined.', content: '' } })),
    ).toEqual({ cancelled: 'The user declined.' });
    expect(callResultOf(toolCall({ toolName: 'x', state: 'executing' }))).toBeUndefined();
  });
});

describe('MessageList with MCP Apps', () => {
  const chat: McpAppsChat = {
    callAppTool: vi.fn(),
    sendMessage: vi.fn(),
    setAppContext: vi.fn(),
  };
  const part: ToolCallPart = toolCall({
    toolName: 'clock__get-time',
    toolCallId: 'call_clock',
    state: 'output-available',
    input: {},
    result: { state: 'complete', output: { content: [{ type: 'text', text: '12:00' }] }, content: '' },
  });
  const message: ChatMessage = {
    id: 'a1',
    role: 'assistant',
    createdAt: 0,
    parts: [part, { type: 'data', name: MCP_APP_EVENT, id: 'call_clock', data: app() }],
  };

  it('shows the app in a sandboxed frame in the call’s card, and not the data part on its own', async () => {
    render(<MessageList messages={[message]} apps={{ chat }} />);
    const frame = await screen.findByTestId('mcp-app-frame');
    expect(frame.getAttribute('sandbox')).toBe(APP_SANDBOX);
    expect(frame.getAttribute('srcdoc')).toContain('Content-Security-Policy');
    expect(screen.getByTestId('mcp-app').getAttribute('data-server')).toBe('clock');
    expect(screen.getAllByTestId('tool-call')).toHaveLength(1);
  });

  it('gives the card when the app’s server is turned off, when the list has a renderer of its own for the tool, and without `apps`', () => {
    const own = makeToolUI('clock__get-time', () => <p data-testid="own-renderer">own</p>);
    const views = [
      render(<MessageList messages={[message]} apps={{ chat, off: ['clock'] }} />),
      render(<MessageList messages={[message]} apps={{ chat }} tools={[own]} />),
      render(<MessageList messages={[message]} />),
    ];
    expect(screen.queryAllByTestId('mcp-app')).toHaveLength(0);
    expect(screen.getAllByTestId('tool-call')).toHaveLength(3);
    expect(screen.getAllByTestId('own-renderer')).toHaveLength(1);
    for (const view of views) view.unmount();
  });
});
