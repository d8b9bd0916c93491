import type { Event as WireEvent } from '@ag-ui/core';
import { ChatwireError } from './errors.js';

/**
 * Event validation without a schema library: the client checks exactly the fields its reducer reads,
 * by hand, so the browser bundle carries no zod (AG-UI's own schemas are zod's classic API, about
 * 25 kB gzipped). Every event type of AG-UI 1.0 is known; the ones the reducer ignores pass with
 * their `type` checked only.
 */

/** s: string, s?: optional string, o?: optional plain object, any other value: a named check below. */
type FieldCheck = 's' | 's?' | 'o?' | 'content' | 'outcome?' | 'defined';

const READ_FIELDS: Readonly<Record<string, Readonly<Record<string, FieldCheck>>>> = {
  TEXT_MESSAGE_START: { messageId: 's' },
  TEXT_MESSAGE_CONTENT: { messageId: 's', delta: 's' },
  TEXT_MESSAGE_END: { messageId: 's' },
  TEXT_MESSAGE_CHUNK: { messageId: 's?', delta: 's?' },
  TOOL_CALL_START: { toolCallId: 's', toolCallName: 's', parentMessageId: 's?' },
  TOOL_CALL_ARGS: { toolCallId: 's', delta: 's' },
  TOOL_CALL_END: { toolCallId: 's' },
  TOOL_CALL_RESULT: { messageId: 's', toolCallId: 's', content: 'content', metadata: 'o?' },
  CUSTOM: { name: 's', value: 'defined' },
  RUN_STARTED: { threadId: 's', runId: 's' },
  RUN_FINISHED: { threadId: 's', runId: 's', outcome: 'outcome?' },
  RUN_ERROR: { message: 's' },
};

/** AG-UI 1.0 event types the reducer does not read: accepted as they are. */
const PASSED_THROUGH = new Set([
  'TOOL_CALL_CHUNK',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'STEP_STARTED',
  'STEP_FINISHED',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
  if (!isObject(raw) || typeof raw['type'] !== 'string') {
    throw new ChatwireError('invalid-event', 'The server sent an invalid event without a type: every AG-UI event is an object with a string `type`.');
  }
  const type = raw['type'];
  const fields = READ_FIELDS[type];
  if (!fields) return PASSED_THROUGH.has(type) ? { known: true, event: raw as unknown as WireEvent } : { known: false, type };
  for (const name in fields) {
    const problem = checkField(raw[name], fields[name] as FieldCheck);
    if (problem) throw new ChatwireError('invalid-event', `The server sent an invalid ${type} event: \`${name}\` ${problem}.`);
  }
  return { known: true, event: raw as unknown as WireEvent };
}

function checkField(value: unknown, check: FieldCheck): string | undefined {
  const optional = value === undefined;
  switch (check) {
    case 's':
      return typeof value === 'string' ? undefined : `must be a string (got ${describe(value)})`;
    case 's?':
      return optional || typeof value === 'string' ? undefined : `must be a string when present (got ${describe(value)})`;
    case 'o?':
      return optional || isObject(value) ? undefined : `must be an object when present (got ${describe(value)})`;
    case 'defined':
      return optional ? 'is missing' : undefined;
    case 'content':
      if (typeof value === 'string') return undefined;
      if (!Array.isArray(value)) return `must be a string or an array of content parts (got ${describe(value)})`;
      for (const [index, part] of value.entries()) {
        if (!isObject(part) || typeof part['type'] !== 'string') return `[${index}] must be a content part with a string \`type\``;
        if (part['type'] === 'text' && typeof part['text'] !== 'string') return `[${index}].text must be a string`;
      }
      return undefined;
    case 'outcome?':
      return optional ? undefined : checkOutcome(value);
  }
}

function checkOutcome(value: unknown): string | undefined {
  if (!isObject(value) || typeof value['type'] !== 'string') return 'must be an object with a string `type`';
  if (value['type'] !== 'interrupt') return undefined;
  const interrupts = value['interrupts'];
  if (!Array.isArray(interrupts)) return '.interrupts must be an array';
  for (const [index, interrupt] of interrupts.entries()) {
    if (!isObject(interrupt)) return `.interrupts[${index}] must be an object`;
    if (typeof interrupt['id'] !== 'string') return `.interrupts[${index}].id must be a string`;
    if (typeof interrupt['reason'] !== 'string') return `.interrupts[${index}].reason must be a string`;
    if (interrupt['toolCallId'] !== undefined && typeof interrupt['toolCallId'] !== 'string') return `.interrupts[${index}].toolCallId must be a string`;
    if (interrupt['metadata'] !== undefined && !isObject(interrupt['metadata'])) return `.interrupts[${index}].metadata must be an object`;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
