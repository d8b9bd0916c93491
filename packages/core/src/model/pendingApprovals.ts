import { isToolCallEventAllowed, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { ChatMessage } from './messages.js';

/**
 * The tool calls of `messages` waiting for the user's approval: those the tool-call lifecycle
 * table lets take an approval response now, in conversation order.
 *
 * @example
 * ```ts
 * const waiting = pendingApprovals(client.getSnapshot().messages);
 * ```
 */
export function pendingApprovals(messages: readonly ChatMessage[]): ToolCallPart[] {
  return messages.flatMap((message) =>
    message.parts.filter(
      (part): part is ToolCallPart => part.type === 'tool-call' && isToolCallEventAllowed(part.state, 'approvalResponse'),
    ),
  );
}
