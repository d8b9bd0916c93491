import { memo } from 'react';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCallPart } from '@chatwire/core';
import { codeModeEvents } from '@chatwire/code-mode/client';
import { useChat } from '@chatwire/react';
import { Gate, cleanupAfterEach, freshRegistry, scriptedConnection, withRegistry } from './helpers.tsx';

cleanupAfterEach();

/** Code Mode turned on (a module constant: the option keeps its identity across renders). */
const customEvents = [codeModeEvents];

/**
 * Code Mode through useChat: the `chatwire.code_mode.*` events of an `execute_typescript` call
 * reach `messages` as the call's `extensions.codeMode` (with `customEvents: [codeModeEvents]`),
 * nested calls moving through their states.
 * Hand-written events in the shape docs/protocol.md documents.
 */

const code = "return await Promise.all([external_getWeather({ city: 'Paris' }), external_getWeather({ city: 'Tokyo' })]);";
const event = (type: string, value: Record<string, unknown>) => ({
  type: 'CUSTOM',
  name: `chatwire.code_mode.${type}`,
  value: { executionId: 'e1', toolCallId: 'x1', ...value },
});

/** A turn with one execution; the gate holds it after the nested calls started, and again before they return. */
function codeModeConnection(gate: Gate) {
  return scriptedConnection(async function* (input, run, signal) {
    yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
    if (run === 0) {
      yield { type: 'TEXT_MESSAGE_START', messageId: 'a0', role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a0', delta: 'Hello.' };
      yield { type: 'TEXT_MESSAGE_END', messageId: 'a0' };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      return;
    }
    yield { type: 'TOOL_CALL_START', toolCallId: 'x1', toolCallName: 'execute_typescript', parentMessageId: 'a1' };
    yield { type: 'TOOL_CALL_ARGS', toolCallId: 'x1', delta: JSON.stringify({ typescriptCode: code }) };
    yield { type: 'TOOL_CALL_END', toolCallId: 'x1' };
    yield event('execution_started', { code, bindings: ['external_getWeather'], undiscovered: [], discoveryKnown: true });
    yield event('external_call', { callId: 'x1.1', toolName: 'getWeather', input: { city: 'Paris' } });
    yield event('external_call', { callId: 'x1.2', toolName: 'getWeather', input: { city: 'Tokyo' } });
    if (!(await gate.pass(signal))) return;
    yield event('external_result', { callId: 'x1.1', toolName: 'getWeather', output: { celsius: 18 }, durationMs: 30 });
    yield event('external_error', {
      callId: 'x1.2',
      toolName: 'getWeather',
      error: { name: 'ToolError', message: 'Tokyo is offline' },
      durationMs: 31,
    });
    yield event('console', { level: 'log', text: 'one of two' });
    yield event('execution_finished', { success: true, durationMs: 40, toolCalls: 2, logLines: 1, truncated: false });
    yield {
      type: 'TOOL_CALL_RESULT',
      messageId: 't1',
      toolCallId: 'x1',
      content: JSON.stringify({ success: true, result: [18], logs: ['one of two'] }),
    };
    yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
  });
}

const executionOf = (messages: readonly ChatMessage[]) =>
  messages.at(-1)?.parts.find((part): part is ToolCallPart => part.type === 'tool-call' && part.toolName === 'execute_typescript');

describe('useChat with Code Mode', () => {
  it('exposes the execution on the call’s part in messages, each nested call moving through its states', async () => {
    const gate = new Gate();
    const { connection } = codeModeConnection(gate);
    const { result } = renderHook(() => useChat({ id: 'code', connection, customEvents, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await act(async () => {
      await result.current.sendMessage('hi');
    });
    let sending: Promise<unknown> | undefined;
    act(() => {
      sending = result.current.sendMessage('use code');
    });
    await waitFor(() =>
      expect(executionOf(result.current.messages)?.extensions?.codeMode?.calls.map((call) => call.state)).toEqual([
        'executing',
        'executing',
      ]),
    );
    expect(executionOf(result.current.messages)?.extensions?.codeMode).toMatchObject({ code, state: 'running', logs: [] });

    gate.open();
    await act(async () => {
      await sending;
    });
    const call = executionOf(result.current.messages);
    expect(call?.state).toBe('output-available');
    expect(call?.result?.output).toEqual({ success: true, result: [18], logs: ['one of two'] });
    expect(call?.extensions?.codeMode).toMatchObject({
      state: 'succeeded',
      logs: [{ level: 'log', text: 'one of two' }],
      calls: [
        { callId: 'x1.1', state: 'output-available', output: { celsius: 18 }, durationMs: 30 },
        { callId: 'x1.2', state: 'output-error', error: { name: 'ToolError', message: 'Tokyo is offline' } },
      ],
    });
  });

  it('re-renders only the row of the streaming turn: settled messages keep their identity as events arrive', async () => {
    const gate = new Gate();
    gate.open();
    const { connection } = codeModeConnection(gate);
    const renders = new Map<string, number>();
    const Row = memo(function Row({ message }: { message: ChatMessage }) {
      renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
      const execution = executionOf([message])?.extensions?.codeMode;
      return (
        <li data-testid={message.role}>
          {execution ? execution.calls.map((call) => `${call.toolName}:${call.state}`).join(' ') : message.id}
        </li>
      );
    });
    let send: ((text: string) => Promise<unknown>) | undefined;
    function Chat() {
      const chat = useChat({ id: 'code-rows', connection, customEvents, batching: 'none' });
      send = chat.sendMessage;
      return (
        <ul>
          {chat.messages.map((message) => (
            <Row key={message.id} message={message} />
          ))}
        </ul>
      );
    }
    render(<Chat />, { wrapper: withRegistry(freshRegistry()) });
    await act(async () => {
      await send?.('hi');
    });
    const firstIds = [...renders.keys()];
    const before = new Map(renders);
    await act(async () => {
      await send?.('use code');
    });
    expect(screen.getAllByTestId('assistant').at(-1)?.textContent).toBe('getWeather:output-available getWeather:output-error');
    // The first turn's two messages rendered exactly as often as before the Code Mode turn.
    for (const id of firstIds) expect(renders.get(id)).toBe(before.get(id));
  });
});
