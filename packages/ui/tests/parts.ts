import type { ChatMessage, ToolCallPart } from '@chatwire/core';

/** Hand-written tool call parts, as the chat holds them in each state. */
export function toolCall(overrides: Partial<ToolCallPart> & Pick<ToolCallPart, 'toolName' | 'state'>): ToolCallPart {
  return {
    type: 'tool-call',
    toolCallId: `call-${overrides.toolName}-${overrides.state}`,
    messageId: 'a1',
    argsText: '',
    partialInput: undefined,
    input: undefined,
    timeline: [],
    ...overrides,
  };
}

export const weatherDone = toolCall({
  toolName: 'getWeather',
  state: 'output-available',
  input: { city: 'Paris' },
  result: {
    state: 'complete',
    output: { city: 'Paris', celsius: 18, sky: 'clear' },
    content: '{"city":"Paris","celsius":18,"sky":"clear"}',
  },
});

export const refundWaiting = toolCall({
  toolName: 'refundOrder',
  state: 'approval-requested',
  input: { orderId: 'ORD-1234' },
  approval: { id: 'approval-1', requestedBy: 'server' } as ToolCallPart['approval'],
});

export const refundDeclined = toolCall({
  toolName: 'refundOrder',
  state: 'cancelled',
  input: { orderId: 'ORD-1234' },
  cancelReason: 'denied',
  approval: { id: 'approval-1', requestedBy: 'server', approved: false, respondedBy: 'user' } as ToolCallPart['approval'],
  result: { state: 'error', error: 'denied', content: 'The user denied this call.' } as ToolCallPart['result'],
});

export const discoveryDone = toolCall({
  toolName: '__lazy__tool__discovery__',
  state: 'output-available',
  input: { toolNames: ['trackShipment'] },
  result: { state: 'complete', output: { discovered: ['trackShipment'], tools: [] }, content: '{"discovered":["trackShipment"]}' },
});

export const failed = toolCall({
  toolName: 'getOrder',
  state: 'output-error',
  input: { orderId: 'ORD-9' },
  result: { state: 'error', error: 'No order ORD-9', content: 'No order ORD-9' } as ToolCallPart['result'],
});

export function assistant(id: string, parts: ChatMessage['parts']): ChatMessage {
  return { id, role: 'assistant', parts, createdAt: 0 };
}

export function user(id: string, text: string): ChatMessage {
  return { id, role: 'user', parts: [{ type: 'text', text, state: 'done' }], createdAt: 0 };
}
