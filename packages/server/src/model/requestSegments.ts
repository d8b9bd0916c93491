import type { RequestSegmentBlock } from '@chatwire/core/shared';
import type { ModelRequest } from './chatModel.js';
import { countableText } from './tokens.js';

/** One text of a request as an adapter serialises it (see `ToolTokenCounter.segments`). */
export interface RequestSegment {
  readonly text: string;
  readonly block: RequestSegmentBlock;
  /** A `tool` text: the tool's name. */
  readonly tool?: string;
  /** A `message` text: the index in `ModelRequest.messages` of the message it carries (the first, when it joins several). */
  readonly message?: number;
}

/** What a serialisation reads of a request. */
export type SerializableRequest = Pick<ModelRequest, 'system' | 'messages' | 'tools'>;

/**
 * The request as the scripted model receives it, as JSON: `{"system":…,"messages":[…],"tools":[…]}`,
 * the text `countRequestTokens` counts (media parts as their descriptions). The comma before a
 * message or a tool belongs to it.
 *
 * @example
 * ```ts
 * jsonRequestSegments({ system: 'Be brief.', messages, tools }).map((segment) => segment.text).join(''); // the JSON
 * ```
 */
export function jsonRequestSegments(request: SerializableRequest): RequestSegment[] {
  const segments: RequestSegment[] = [{ text: '{"system":', block: 'framing' }];
  const system = JSON.stringify(request.system ?? '');
  segments.push(request.system === undefined ? { text: system, block: 'framing' } : { text: system, block: 'system' });
  segments.push({ text: ',"messages":[', block: 'framing' });
  request.messages.forEach((message, index) =>
    segments.push({ text: countableText(message, index > 0), block: 'message', message: index }),
  );
  segments.push({ text: '],"tools":[', block: 'framing' });
  request.tools.forEach((tool, index) =>
    segments.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(tool)}`, block: 'tool', tool: tool.name }),
  );
  segments.push({ text: ']}', block: 'framing' });
  return segments;
}
