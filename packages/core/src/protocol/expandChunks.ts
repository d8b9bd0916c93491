import type { Event as WireEvent } from '@ag-ui/core';
import { ChatwireError } from '../base/errors.js';
import { createId } from '../base/ids.js';

/** A chunk event's fields, whichever of the three kinds it is. */
type Chunk = {
  readonly type: string;
  readonly messageId?: string;
  readonly toolCallId?: string;
  readonly toolCallName?: string;
  readonly parentMessageId?: string;
  readonly role?: string;
  readonly delta?: string;
  readonly subagentRunId?: string;
};

/** What each chunk kind stands for: its id field and the start / content / end events it expands into. */
const KINDS = {
  TEXT_MESSAGE_CHUNK: { id: 'messageId', start: 'TEXT_MESSAGE_START', content: 'TEXT_MESSAGE_CONTENT', end: 'TEXT_MESSAGE_END' },
  TOOL_CALL_CHUNK: { id: 'toolCallId', start: 'TOOL_CALL_START', content: 'TOOL_CALL_ARGS', end: 'TOOL_CALL_END' },
  REASONING_MESSAGE_CHUNK: {
    id: 'messageId',
    start: 'REASONING_MESSAGE_START',
    content: 'REASONING_MESSAGE_CONTENT',
    end: 'REASONING_MESSAGE_END',
  },
} as const;
type Kind = keyof typeof KINDS;

/**
 * Whether `type` is one of the chunk kinds: compared as strings (most types differ in length, so
 * this is quick) rather than looked up in `KINDS`, which costs a string-table lookup of every
 * event's freshly parsed `type`.
 */
const isChunk = (type: string): type is Kind =>
  type === 'TEXT_MESSAGE_CHUNK' || type === 'TOOL_CALL_CHUNK' || type === 'REASONING_MESSAGE_CHUNK';

/**
 * Expands AG-UI's chunk shorthands (`TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK`,
 * `REASONING_MESSAGE_CHUNK`) into the start / content / end events they stand for, as the
 * reference client does: a chunk with a new id opens its message or call (closing the one open),
 * a chunk without an id continues the open one, and any other event closes what chunks left open.
 * Call the returned function with `undefined` at the end of the stream to close what is still open.
 * The array it returns is read before the next call (it may be reused).
 */
export function createChunkExpander(): (event: WireEvent | undefined) => WireEvent[] {
  let open: { readonly kind: Kind; readonly id: string; readonly subagentRunId: string | undefined } | undefined;
  const close = (out: unknown[]) => {
    if (!open) return;
    out.push({
      type: KINDS[open.kind].end,
      [KINDS[open.kind].id]: open.id,
      ...(open.subagentRunId === undefined ? {} : { subagentRunId: open.subagentRunId }),
    });
    open = undefined;
  };
  // Most events are no chunk and come with none open: they pass as they are, in one array reused
  // for each (the caller reads it before it expands the next event).
  const single: WireEvent[] = [];
  return (event) => {
    if (!open && event && !isChunk(event.type)) {
      single[0] = event;
      return single;
    }
    const out: unknown[] = [];
    if (!event || !isChunk(event.type)) {
      close(out);
      if (event) out.push(event);
      return out as WireEvent[];
    }
    const chunk = event as Chunk;
    const kind = chunk.type as Kind;
    const spec = KINDS[kind];
    const given = chunk[spec.id];
    const attribution = chunk.subagentRunId === undefined ? {} : { subagentRunId: chunk.subagentRunId };
    if (!open || open.kind !== kind || (given !== undefined && given !== open.id)) {
      close(out);
      if (kind === 'TOOL_CALL_CHUNK' && typeof chunk.toolCallName !== 'string') {
        throw new ChatwireError(
          'invalid-event',
          'The server sent an invalid TOOL_CALL_CHUNK event: the chunk that opens a call needs `toolCallName`.',
        );
      }
      const id = given ?? createId(kind === 'TOOL_CALL_CHUNK' ? 'call' : 'msg');
      out.push(
        kind === 'TOOL_CALL_CHUNK'
          ? {
              type: spec.start,
              toolCallId: id,
              toolCallName: chunk.toolCallName,
              ...(chunk.parentMessageId === undefined ? {} : { parentMessageId: chunk.parentMessageId }),
              ...attribution,
            }
          : {
              type: spec.start,
              messageId: id,
              role: kind === 'REASONING_MESSAGE_CHUNK' ? 'reasoning' : (chunk.role ?? 'assistant'),
              ...attribution,
            },
      );
      open = { kind, id, subagentRunId: chunk.subagentRunId };
    }
    if (chunk.delta) out.push({ type: spec.content, [spec.id]: open.id, delta: chunk.delta, ...attribution });
    return out as WireEvent[];
  };
}
