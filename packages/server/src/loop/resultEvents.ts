import { EventType, type Event, type ToolCall, type ToolMessage } from '@ag-ui/core';
import { createId, type ResultMetadata } from '@chatwire/core/shared';
import { redactSecrets } from '../errors/redactSecrets.js';
import { adding } from './historyAdditions.js';
import type { RunContext } from '../run/runContext.js';

/** A signed TOOL_CALL_RESULT, carrying the tool message the loop adds to the run's history after its call. */
export function resultEvent(context: RunContext, call: ToolCall, content: string, meta: ResultMetadata): Event {
  const signature = context.signer.resultSignature(context.threadId, call, content);
  const metadata = { chatwire: { ...meta, signature } };
  const messageId = createId('tool');
  // Keys in the order AG-UI's schema gives a reviewed history, so this message serialises the same
  // when the client sends it back (a provider's prompt cache matches on the bytes).
  const message: ToolMessage = {
    id: messageId,
    role: 'tool',
    content,
    toolCallId: call.id,
    ...(meta.error ? { error: meta.error } : {}),
    metadata,
  };
  return adding({ type: EventType.TOOL_CALL_RESULT, messageId, toolCallId: call.id, content, role: 'tool', metadata }, [message]);
}

/**
 * A failed call's result: the model reads `{ error }` and can act on it. `meta` adds to the metadata
 * (discovery markers). Every tool error reaches the model and the client through here, so this is where
 * credentials in it are redacted (`redactSecrets`), whoever wrote the text: a tool, an MCP server, a validator.
 */
export function errorResult(
  context: RunContext,
  call: ToolCall,
  error: string,
  meta: Omit<ResultMetadata, 'outcome' | 'error'> = {},
): Event {
  const shown = redactSecrets(error);
  return resultEvent(context, call, JSON.stringify({ error: shown }), { ...meta, outcome: 'error', error: shown });
}

/**
 * A call the user declined: a `cancelled` result with the user's reason, which is what the model
 * reads. `text` replaces the whole message (a policy's or a grant's denial).
 */
export function deniedResult(context: RunContext, call: ToolCall, reason: string | undefined, text?: string): Event {
  const error = text ?? `The user declined to run '${call.function.name}'${reason ? `: ${reason}` : '.'}`;
  return resultEvent(context, call, JSON.stringify({ error }), { outcome: 'cancelled', reason: 'denied', error });
}
