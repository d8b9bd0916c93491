import { describe, expect, it } from 'vitest';
import type { ChatState, ToolCallPart } from '@chatwire/core';
import { initialChatState, parseToolArguments } from '@chatwire/core/shared';
import { reduceWireEvent } from '@chatwire/core/wire';

// Issue 25: tool arguments are parsed by one rule. The browser's tool-call lifecycle (the arguments
// of TOOL_CALL_END) and an approval decision's edited arguments give the answer the shared parser
// gives, and never keep a `__proto__` key.

const ownProto = (value: unknown) => typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__');

function streamedCall(argsText: string): { state: ChatState; part: ToolCallPart } {
  let state = initialChatState([]);
  const events = [
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'getWeather', parentMessageId: 'a1' },
    ...(argsText === '' ? [] : [{ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: argsText }]),
    { type: 'TOOL_CALL_END', toolCallId: 'c1' },
  ];
  for (const event of events) state = reduceWireEvent(state, event as never, 1).state;
  return { state, part: partOf(state) };
}

const partOf = (state: ChatState) =>
  state.messages.flatMap((message) => message.parts).find((part): part is ToolCallPart => part.type === 'tool-call') as ToolCallPart;

describe('one tool-argument parser: the browser lifecycle and the shared parser agree', () => {
  it.each([
    ['{"city":"Paris"}', { city: 'Paris' }],
    ['{"__proto__":{"polluted":true},"city":"Paris"}', { city: 'Paris' }],
    ['{"nested":{"__proto__":{"x":1},"y":2}}', { nested: { y: 2 } }],
    ['{"\\u005f_proto__":{"polluted":true},"city":"Nice"}', { city: 'Nice' }],
    ['', {}],
    ['  ', {}],
  ])('%j', (text, expected) => {
    expect(parseToolArguments(text)).toEqual(expected);
    const { part } = streamedCall(text);
    expect(part.input).toEqual(expected);
    expect(ownProto(part.input)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('both refuse text that is not JSON', () => {
    expect(() => parseToolArguments('{"city":')).toThrow(SyntaxError);
    expect(streamedCall('{"city":').part.input).toBeUndefined();
  });

  it("an approval decision's edited arguments drop a `__proto__` key, as the server's parser does", () => {
    const { state } = streamedCall('{"city":"Paris"}');
    const edited = '{"__proto__":{"polluted":true},"city":"Lyon"}';
    const next = reduceWireEvent(
      state,
      {
        type: 'CUSTOM',
        name: 'chatwire.approval_decision',
        value: { toolCallId: 'c1', toolName: 'getWeather', by: 'user', decision: 'approve', editedArguments: edited },
      } as never,
      2,
    ).state;
    const input = partOf(next).input;
    expect(input).toEqual(parseToolArguments(edited));
    expect(input).toEqual({ city: 'Lyon' });
    expect(ownProto(input)).toBe(false);
  });
});
