import type { Event as WireEvent } from '@ag-ui/core';
import { checkShape, isRecord, typeOf, type Shape } from './checkShape.js';
import { ChatwireError } from './errors.js';

/**
 * Event validation without a schema library: the client checks exactly the fields its reducer reads,
 * by hand, so the browser bundle carries no zod (AG-UI's own schemas are zod's classic API, about
 * 25 kB gzipped). Every event type of AG-UI 1.0 is known; the ones the reducer ignores pass with
 * their `type` checked only.
 */

/** What the reducer reads of each event type; `content` and `outcome` get their own checks below. */
const READ_FIELDS: Readonly<Record<string, Shape>> = {
  TEXT_MESSAGE_START: { messageId: 's' },
  TEXT_MESSAGE_CONTENT: { messageId: 's', delta: 's' },
  TEXT_MESSAGE_END: { messageId: 's' },
  TEXT_MESSAGE_CHUNK: { 'messageId?': 's', 'delta?': 's' },
  TOOL_CALL_START: { toolCallId: 's', toolCallName: 's', 'parentMessageId?': 's' },
  TOOL_CALL_ARGS: { toolCallId: 's', delta: 's' },
  TOOL_CALL_END: { toolCallId: 's' },
  TOOL_CALL_RESULT: { messageId: 's', toolCallId: 's', 'metadata?': 'o' },
  CUSTOM: { name: 's', value: '*' },
  RUN_STARTED: { threadId: 's', runId: 's' },
  RUN_FINISHED: { threadId: 's', runId: 's', 'outcome?': { type: 's' } },
  RUN_ERROR: { message: 's' },
};

/**
 * The other AG-UI 1.0 event types (the reducer does not read them): accepted as they are. A fixed
 * pattern of alternatives without nested repetition, so matching is linear in the type's length.
 */
const PASSED_THROUGH =
  /^(?:TOOL_CALL_CHUNK|(?:STATE|ACTIVITY)_(?:SNAPSHOT|DELTA)|MESSAGES_SNAPSHOT|RAW|STEP_(?:STARTED|FINISHED)|REASONING_(?:START|END|ENCRYPTED_VALUE|MESSAGE_(?:START|CONTENT|END|CHUNK))|SUBAGENT_(?:STARTED|FINISHED|ERROR))$/;

const INTERRUPT: Shape = { id: 's', reason: 's', 'toolCallId?': 's', 'metadata?': 'o' };

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
  const fields = READ_FIELDS[type];
  if (!fields) return PASSED_THROUGH.test(type) ? { known: true, event: raw as unknown as WireEvent } : { known: false, type };
  const problem = checkShape(raw, fields) ?? checkContent(raw) ?? checkInterrupts(raw);
  if (problem) throw new ChatwireError('invalid-event', `The server sent an invalid ${type} event: ${problem}.`);
  return { known: true, event: raw as unknown as WireEvent };
}

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
    const problem = isRecord(interrupt) ? checkShape(interrupt, INTERRUPT, `outcome.interrupts[${index}].`) : `\`outcome.interrupts[${index}]\` must be an object`;
    if (problem) return problem;
  }
  return undefined;
}
