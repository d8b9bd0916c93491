import type { RunAgentInput } from '@ag-ui/core';
import { isCheckedMessage } from './knownMessages.js';

/** The longest id the handler accepts (thread, run, message, tool-call ids), in UTF-16 code units. */
export const MAX_ID_LENGTH = 256;

/**
 * Printable: no control characters (C0, C1), no format characters (bidi controls, zero-width
 * characters), no lone surrogates, no line or paragraph separators. A fixed pattern, linear.
 */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]*$/u;

/** Why an id is refused, naming its field; `undefined` when it is a string of 1 to 256 printable characters. */
export function idProblem(value: unknown, field: string): string | undefined {
  if (typeof value !== 'string') return `${field} must be a string.`;
  if (value.length === 0) return `${field} must not be empty.`;
  if (value.length > MAX_ID_LENGTH) return `${field} is ${value.length} characters long; ids may be at most ${MAX_ID_LENGTH} characters.`;
  if (!PRINTABLE.test(value)) return `${field} contains a control, format or unpaired surrogate character; ids must be printable.`;
  return undefined;
}

/** A refused id: the field it was in and why. The id itself is never echoed. */
export interface IdRefusal {
  readonly field: string;
  readonly error: string;
}

/**
 * Checks every id of a run input before anything is stored or run: `threadId`, `runId`,
 * `parentRunId`, each message's `id`, each tool call's `id`, each tool message's `toolCallId`, and
 * each resume entry's `interruptId`.
 */
export function checkRunInputIds(input: RunAgentInput): IdRefusal | undefined {
  const check = (value: unknown, field: string): IdRefusal | undefined => {
    const error = idProblem(value, field);
    return error === undefined ? undefined : { field, error };
  };
  const top =
    check(input.threadId, 'threadId') ??
    check(input.runId, 'runId') ??
    (input.parentRunId === undefined ? undefined : check(input.parentRunId, 'parentRunId'));
  if (top) return top;
  for (const [index, message] of input.messages.entries()) {
    // Checked when the server first saw it (see knownMessages.ts).
    if (isCheckedMessage(message)) continue;
    const refused = check(message.id, `messages[${index}].id`);
    if (refused) return refused;
    if (message.role === 'assistant') {
      for (const [call, toolCall] of (message.toolCalls ?? []).entries()) {
        const bad = check(toolCall.id, `messages[${index}].toolCalls[${call}].id`);
        if (bad) return bad;
      }
    }
    if (message.role === 'tool') {
      const bad = check(message.toolCallId, `messages[${index}].toolCallId`);
      if (bad) return bad;
    }
  }
  // Interrupt ids are echoed in refusals (an unknown approval or input request): checked the same way.
  for (const [index, entry] of (input.resume ?? []).entries()) {
    const bad = check(entry.interruptId, `resume[${index}].interruptId`);
    if (bad) return bad;
  }
  return undefined;
}
