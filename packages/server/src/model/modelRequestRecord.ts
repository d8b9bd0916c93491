import type { Message } from '@ag-ui/core';
import type { ModelRequestRecord, RequestSegmentRecord } from '@chatwire/core/shared';
import { redactSecrets } from '../errors/redactSecrets.js';
import type { CountedRequest } from './countedRequest.js';

/** The most characters of one text a record shows (a long text keeps its start and its end). */
const SHOWN_CHARS = 4_000;

/** FNV-1a (32 bits) of a text, as 8 hex digits: tells two texts apart, reveals nothing of them. */
function digestOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** A text as a record shows it: secrets redacted, and past {@link SHOWN_CHARS} its start and end. */
function shown(text: string): { readonly text: string; readonly chars?: number } {
  const redacted = redactSecrets(text);
  if (redacted.length <= SHOWN_CHARS) return { text: redacted };
  const head = Math.floor(SHOWN_CHARS * 0.75);
  const tail = SHOWN_CHARS - head;
  const hidden = redacted.length - head - tail;
  return { text: `${redacted.slice(0, head)} … (${hidden} characters not shown) … ${redacted.slice(-tail)}`, chars: text.length };
}

/** What a request record says besides the request itself. */
export interface ModelRequestRecordOptions {
  readonly runId: string;
  readonly step: number;
  readonly provider: string;
  readonly model: string;
  readonly counting: ModelRequestRecord['counting'];
  readonly serialisation: ModelRequestRecord['serialisation'];
  /** The messages the request was serialised from (their ids and roles name the message texts). */
  readonly messages: readonly Message[];
}

/**
 * The record of one model call's request for devtools (`chatwire.model_request`): each text as the
 * adapter serialised it with the tokens it holds there, secrets redacted (`redactSecrets`) and long
 * texts shortened (a digest of the whole text still tells a change); media parts are their
 * descriptions already (the serialisations count them so).
 */
export function modelRequestRecord(counted: CountedRequest, options: ModelRequestRecordOptions): ModelRequestRecord {
  const segments = counted.segments.map((segment, index): RequestSegmentRecord => {
    const message = segment.message === undefined ? undefined : options.messages[segment.message];
    return {
      block: segment.block,
      ...shown(segment.text),
      tokens: counted.tokens[index] as number,
      // Without the comma before it: a text that moves in its list keeps its digest.
      digest: digestOf(segment.text.startsWith(',') ? segment.text.slice(1) : segment.text),
      ...(segment.tool === undefined ? {} : { tool: segment.tool }),
      ...(segment.message === undefined
        ? {}
        : { message: { index: segment.message, ...(message?.id ? { id: message.id } : {}), role: message?.role ?? 'unknown' } }),
    };
  });
  return {
    runId: options.runId,
    step: options.step,
    provider: options.provider,
    model: options.model,
    counting: options.counting,
    serialisation: options.serialisation,
    segments,
    tokens: counted.total,
  };
}
