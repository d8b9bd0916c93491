import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolDefinition, type AnyTool, type ChatConnection, type ToolCallPart } from '@chatwire/core';
import { useChat } from '@chatwire/react';
import type { RunInput } from './helpers.tsx';

/**
 * A server that asks the browser to run `setVolume` with the given arguments, then answers with the
 * tool message it got back (AG-UI 1.0: the run finishes naming the pending call).
 */
function volumeServer(args: string): { connection: ChatConnection; inputs: RunInput[] } {
  const inputs: RunInput[] = [];
  const connection: ChatConnection = {
    async *run(input) {
      inputs.push(input);
      const { threadId, runId } = input;
      yield { type: 'RUN_STARTED', threadId, runId };
      const answered = input.messages.some((message) => message.role === 'tool');
      if (!answered) {
        yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'setVolume', parentMessageId: 'a1' };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: args };
        yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
        yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success', pendingToolCallIds: ['c1'] } };
        return;
      }
      yield { type: 'TEXT_MESSAGE_START', messageId: `t_${runId}`, role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `t_${runId}`, delta: 'done' };
      yield { type: 'TEXT_MESSAGE_END', messageId: `t_${runId}` };
      yield { type: 'RUN_FINISHED', threadId, runId };
    },
  };
  return { connection, inputs };
}

afterEach(cleanup);

const description = 'Set the page volume.';
const definitions = {
  'valibot (toStandardJsonSchema)': toolDefinition({
    name: 'setVolume',
    description,
    inputSchema: toStandardJsonSchema(v.object({ level: v.pipe(v.number(), v.minValue(0), v.maxValue(10)) })),
  }),
  arktype: toolDefinition({ name: 'setVolume', description, inputSchema: type({ level: '0 <= number <= 10' }) }),
  'plain JSON Schema': toolDefinition({
    name: 'setVolume',
    description,
    inputSchema: {
      type: 'object',
      properties: { level: { type: 'number', minimum: 0, maximum: 10 } },
      required: ['level'],
      additionalProperties: false,
    },
  }),
};

function Chat(props: { connection: ChatConnection; tools: readonly AnyTool[] }) {
  const chat = useChat({ connection: props.connection, tools: props.tools });
  const call = chat.messages.flatMap((message) => message.parts).find((part): part is ToolCallPart => part.type === 'tool-call');
  return (
    <div>
      <span data-testid="status">{chat.status}</span>
      <span data-testid="call">{call ? `${call.state} ${call.result?.error ?? JSON.stringify(call.result?.output ?? null)}` : ''}</span>
      <button onClick={() => void chat.sendMessage('louder')}>send</button>
    </div>
  );
}

describe('useChat with tool schemas other than zod 4', () => {
  for (const [library, definition] of Object.entries(definitions)) {
    it(`${library}: the JSON Schema goes out in the run input, valid arguments run the browser tool, invalid ones never do`, async () => {
      const impl = vi.fn(async ({ level }: { level: number }) => ({ level }));
      const tools = [definition.client(impl as never)];

      const valid = volumeServer('{"level":7}');
      const first = render(<Chat connection={valid.connection} tools={tools} />);
      await act(async () => screen.getByText('send').click());
      await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('ready'));
      const sent = valid.inputs[0]?.tools?.find((tool) => tool.name === 'setVolume');
      expect(sent?.parameters).toMatchObject({ type: 'object', properties: { level: { type: 'number' } } });
      expect(impl).toHaveBeenCalledTimes(1);
      expect(impl.mock.calls[0]?.[0]).toEqual({ level: 7 });
      expect(screen.getByTestId('call').textContent).toBe('output-available {"level":7}');
      // The answer went back as a tool message, and the server's reply arrived.
      expect(valid.inputs).toHaveLength(2);
      first.unmount();
      cleanup();

      const invalid = volumeServer('{"level":70}');
      render(<Chat connection={invalid.connection} tools={tools} />);
      await act(async () => screen.getByText('send').click());
      await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('ready'));
      expect(impl).toHaveBeenCalledTimes(1);
      expect(screen.getByTestId('call').textContent).toMatch(/^output-error .*level/i);
    });
  }
});
