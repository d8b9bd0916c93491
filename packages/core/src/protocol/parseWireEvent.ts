import type { Event as WireEvent } from '@ag-ui/core';
import { checkShape, isRecord, typeOf, type Shape } from '../base/checkShape.js';
import { ChatwireError } from '../base/errors.js';

/**
 * Event validation without a schema library: the client checks exactly the fields its reducer reads,
 * by hand, so the browser bundle carries no zod (AG-UI's own schemas are zod's classic API, about
 * 25 kB gzipped). Every event type of AG-UI 1.0 is known; the ones the reducer ignores pass with
 * their `type` checked only.
 */

/** What the reducers read of each event type; `content`, `outcome` and `messages` get their own checks below. */
const READ_FIELDS: Readonly<Record<string, Shape>> = {
  TEXT_MESSAGE_START: { messageId: 's' },
  TEXT_MESSAGE_CONTENT: { messageId: 's', delta: 's' },
  TEXT_MESSAGE_END: { messageId: 's' },
  TEXT_MESSAGE_CHUNK: { 'messageId?': 's', 'delta?': 's', 'role?': 's' },
  TOOL_CALL_START: { toolCallId: 's', toolCallName: 's', 'parentMessageId?': 's' },
  TOOL_CALL_ARGS: { toolCallId: 's', delta: 's' },
  TOOL_CALL_END: { toolCallId: 's' },
  TOOL_CALL_CHUNK: { 'toolCallId?': 's', 'toolCallName?': 's', 'parentMessageId?': 's', 'delta?': 's' },
  TOOL_CALL_RESULT: { messageId: 's', toolCallId: 's', 'metadata?': 'o' },
  CUSTOM: { name: 's', value: '*' },
  RUN_STARTED: { threadId: 's', runId: 's' },
  RUN_FINISHED: { threadId: 's', runId: 's', 'outcome?': { type: 's' } },
  RUN_ERROR: { message: 's' },
  REASONING_MESSAGE_START: { messageId: 's' },
  REASONING_MESSAGE_CONTENT: { messageId: 's', delta: 's' },
  REASONING_MESSAGE_END: { messageId: 's' },
  REASONING_MESSAGE_CHUNK: { 'messageId?': 's', 'delta?': 's' },
  REASONING_ENCRYPTED_VALUE: { subtype: 's', entityId: 's', encryptedValue: 's' },
  // Legacy (before 1.0), read as reasoning.
  THINKING_TEXT_MESSAGE_CONTENT: { delta: 's' },
  STATE_SNAPSHOT: { snapshot: '*' },
  STATE_DELTA: { delta: '*' },
  MESSAGES_SNAPSHOT: { messages: '*' },
  ACTIVITY_SNAPSHOT: { messageId: 's', activityType: 's', content: 'o', 'replace?': 'b' },
  ACTIVITY_DELTA: { messageId: 's', activityType: 's', patch: '*' },
  SUBAGENT_STARTED: { subagentRunId: 's', name: 's', 'description?': 's', 'parentSubagentRunId?': 's', 'parentToolCallId?': 's' },
  SUBAGENT_FINISHED: { subagentRunId: 's' },
  SUBAGENT_ERROR: { subagentRunId: 's', message: 's' },
};

/**
 * The other AG-UI event types (nothing reads their fields): accepted as they are, legacy
 * `THINKING_*` markers included. A fixed pattern of alternatives without nested repetition, so
 * matching is linear in the type's length.
 */
const PASSED_THROUGH =
  /^(?:RAW|STEP_(?:STARTED|FINISHED)|REASONING_(?:START|END)|THINKING_(?:START|END|TEXT_MESSAGE_START|TEXT_MESSAGE_END))$/;

const INTERRUPT: Shape = {
  id: 's',
  reason: 's',
  'toolCallId?': 's',
  'message?': 's',
  'expiresAt?': 's',
  'responseSchema?': 'o',
  'metadata?': 'o',
  'subagentRunId?': 's',
};

/** The outcome of {@link parseWireEvent}: a checked event, or an event type AG-UI 1.0 does not define. */
export type ParsedWireEvent = { readonly known: true; readonly event: WireEvent } | { readonly known: false; readonly type: string };

/**
 * Checks one decoded event before the reducer reads it. Throws a `ChatwireError` with code
 * `invalid-event` naming the event type and the field; an event type AG-UI 1.0 does not define is
 * reported as unknown (the client ignores it), so a newer server does not fail the turn.
 *
 * @example
 * ```ts
 * const parsed = parseWireEvent(JSON.parse(data));
 * if (parsed.known) dispatch(parsed.event);
 * ```
 */
export function parseWireEvent(raw: unknown): ParsedWireEvent {
  if (!isRecord(raw) || typeof raw['type'] !== 'string') {
    throw new ChatwireError('invalid-event', 'The server sent an invalid event: an AG-UI event is an object with a string `type`.');
  }
  const type = raw['type'];
  const fields = Object.hasOwn(READ_FIELDS, type) ? READ_FIELDS[type] : undefined;
  if (!fields) return PASSED_THROUGH.test(type) ? { known: true, event: raw as unknown as WireEvent } : { known: false, type };
  // The deltas, most of any stream, are checked without the general walk.
  if (
    (type === 'TEXT_MESSAGE_CONTENT' || type === 'TOOL_CALL_ARGS') &&
    isDelta(raw, type === 'TOOL_CALL_ARGS' ? 'toolCallId' : 'messageId')
  )
    return { known: true, event: raw as unknown as WireEvent };
  const problem = checkShape(raw, { 'subagentRunId?': 's', ...fields }) ?? checkContent(raw) ?? checkInterrupts(raw) ?? checkMessages(raw);
  if (problem) throw new ChatwireError('invalid-event', `The server sent an invalid ${type} event: ${problem}.`);
  return { known: true, event: raw as unknown as WireEvent };
}

/**
 * The event itself when `raw` is a well-formed text or argument delta (most of any stream), else
 * `undefined`: what {@link parseWireEvent} would accept for it, without the object it returns. The
 * client's reader calls it first and `parseWireEvent` for everything else.
 */
export function checkedDelta(raw: unknown): WireEvent | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const type = (raw as { type?: unknown }).type;
  if (type === 'TEXT_MESSAGE_CONTENT') return isDelta(raw as Record<string, unknown>, 'messageId') ? (raw as WireEvent) : undefined;
  if (type === 'TOOL_CALL_ARGS') return isDelta(raw as Record<string, unknown>, 'toolCallId') ? (raw as WireEvent) : undefined;
  return undefined;
}

/** A text or argument delta with what READ_FIELDS asks of it (anything else goes through `checkShape`, which says what is wrong). */
const isDelta = (raw: Record<string, unknown>, id: string): boolean =>
  typeof raw['delta'] === 'string' &&
  typeof raw[id] === 'string' &&
  (raw['subagentRunId'] === undefined || typeof raw['subagentRunId'] === 'string');

/** TOOL_CALL_RESULT's `content`: a string, or content parts whose text parts carry text. */
function checkContent(raw: Record<string, unknown>): string | undefined {
  if (raw['type'] !== 'TOOL_CALL_RESULT') return undefined;
  const content = raw['content'];
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `\`content\` must be a string or an array of content parts (got ${typeOf(content)})`;
  for (const [index, part] of content.entries()) {
    if (!isRecord(part) || typeof part['type'] !== 'string') return `\`content[${index}]\` must be a content part with a string \`type\``;
    if (part['type'] === 'text' && typeof part['text'] !== 'string') return `\`content[${index}].text\` must be a string`;
  }
  return undefined;
}

/** RUN_FINISHED's interrupts, which the client answers on the next run. */
function checkInterrupts(raw: Record<string, unknown>): string | undefined {
  const outcome = raw['outcome'];
  if (raw['type'] !== 'RUN_FINISHED' || !isRecord(outcome) || outcome['type'] !== 'interrupt') return undefined;
  const interrupts = outcome['interrupts'];
  if (!Array.isArray(interrupts)) return '`outcome.interrupts` must be an array';
  for (const [index, interrupt] of interrupts.entries()) {
    const problem = isRecord(interrupt)
      ? checkShape(interrupt, INTERRUPT, `outcome.interrupts[${index}].`)
      : `\`outcome.interrupts[${index}]\` must be an object`;
    if (problem) return problem;
  }
  return undefined;
}

/** MESSAGES_SNAPSHOT's messages: what the conversion to UI messages reads of each. */
function checkMessages(raw: Record<string, unknown>): string | undefined {
  if (raw['type'] !== 'MESSAGES_SNAPSHOT') return undefined;
  const messages = raw['messages'];
  if (!Array.isArray(messages)) return `\`messages\` must be an array (got ${typeOf(messages)})`;
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}].`;
    if (!isRecord(message)) return `\`messages[${index}]\` must be an object`;
    const problem =
      checkShape(message, { id: 's', role: 's', 'subagentRunId?': 's', 'metadata?': 'o' }, at) ??
      (message['role'] === 'activity'
        ? checkShape(message, { activityType: 's', content: 'o' }, at)
        : message['role'] === 'tool'
          ? checkShape(message, { toolCallId: 's', 'error?': 's' }, at)
          : message['role'] === 'reasoning'
            ? checkShape(message, { content: 's', 'encryptedValue?': 's' }, at)
            : undefined) ??
      checkContent({ type: 'TOOL_CALL_RESULT', content: message['content'] ?? '' }) ??
      checkToolCalls(message['toolCalls'], at);
    if (problem) return problem;
  }
  return undefined;
}

function checkToolCalls(calls: unknown, at: string): string | undefined {
  if (calls === undefined) return undefined;
  if (!Array.isArray(calls)) return `\`${at}toolCalls\` must be an array`;
  for (const [index, call] of calls.entries()) {
    const path = `${at}toolCalls[${index}].`;
    const problem = isRecord(call)
      ? checkShape(call, { id: 's', function: { name: 's', arguments: 's' } }, path)
      : `\`${at}toolCalls[${index}]\` must be an object`;
    if (problem) return problem;
  }
  return undefined;
}
