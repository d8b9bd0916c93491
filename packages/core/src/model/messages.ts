import type { ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import { parseJsonStrict } from '../base/parseJsonStrict.js';

/** A run of text in a message. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  /** `streaming` while deltas arrive, `done` once the text is final. */
  readonly state: 'streaming' | 'done';
  /** Wire id of the message the text came from (assistant text only). */
  readonly messageId?: string;
  /** The subagent invocation that wrote it (absent: the agent itself). */
  readonly subagentRunId?: string;
}

/** A span of the model's reasoning (AG-UI `REASONING_*`; legacy `THINKING_*` reads the same way). */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly state: 'streaming' | 'done';
  /** Wire id of the reasoning message. */
  readonly messageId: string;
  /** A provider's opaque reasoning artefact; it travels back with the history. */
  readonly encryptedValue?: string;
  readonly subagentRunId?: string;
}

/** Structured progress an agent reports (`ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`): render it by `activityType`. */
export interface ActivityPart {
  readonly type: 'activity';
  /** Wire id of the activity message. */
  readonly messageId: string;
  readonly activityType: string;
  readonly content: Readonly<Record<string, unknown>>;
  readonly subagentRunId?: string;
}

/**
 * Something a run stopped to ask for that is not a tool approval (an AG-UI interrupt of any
 * reason). Answer it with `respondToInterrupt` or `cancelInterrupt`; the next run carries the answer.
 */
export interface InterruptPart {
  readonly type: 'interrupt';
  /** The interrupt id the answer names. */
  readonly id: string;
  /** Why the run stopped: an open string (e.g. `human_input`, `langgraph:interrupt`). */
  readonly reason: string;
  /** A prompt for whoever answers. */
  readonly message?: string;
  /** JSON Schema of the expected answer, for building a form. */
  readonly responseSchema?: Readonly<Record<string, unknown>>;
  /** When it stops being answerable (ISO 8601, as the server sent it). */
  readonly expiresAt?: string;
  readonly toolCallId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly subagentRunId?: string;
  /** The run that asked (the next run names it as `parentRunId`). */
  readonly runId: string;
  readonly status: 'pending' | 'resolved' | 'cancelled';
  /** The answer, once resolved. */
  readonly payload?: unknown;
  /** The run whose input carried the answer; unset until one did. */
  readonly sentIn?: string;
}

/** A subagent invocation (`SUBAGENT_STARTED` ... `FINISHED` / `ERROR`); parts with its `subagentRunId` are its output. */
export interface SubagentPart {
  readonly type: 'subagent';
  readonly subagentRunId: string;
  readonly name: string;
  readonly description?: string;
  readonly parentSubagentRunId?: string;
  readonly parentToolCallId?: string;
  readonly state: 'running' | 'finished' | 'error';
  /** Its result (finished) or error message (error). */
  readonly result?: unknown;
  readonly error?: string;
}

/**
 * A file attached to a user message (`sendMessage({ files })`). It travels as an AG-UI 1.0 image,
 * audio, video or document part, chosen by `mimeType`.
 */
export interface FilePart {
  readonly type: 'file';
  /** The file's MIME type, e.g. `image/png` (`application/octet-stream` when unknown). */
  readonly mimeType: string;
  /**
   * Where the file is: a `data:` URL (base64) for a file sent inline, or the URL the app gave or its
   * `uploadFile` returned. Use it to preview the file (`<img src={part.url}>`).
   */
  readonly url: string;
  /** The file's name, when known (a `File`'s `name`, or the one given). */
  readonly filename?: string;
  /** The file's size in bytes, when known (a `File` or `Blob`). */
  readonly size?: number;
}

/** A file to attach: a `File` or `Blob` (read inline, or given to `uploadFile`), or a URL the agent can fetch. */
export type FileInput = Blob | { readonly url: string; readonly mimeType?: string; readonly filename?: string; readonly size?: number };

/**
 * Data the agent streamed for the UI (a `CUSTOM` event whose name the app declared in `dataParts`),
 * on the assistant message. A later event with the same `name` and `id` replaces it in place.
 */
export interface DataPart<Name extends string = string, Data = unknown> {
  readonly type: 'data';
  /** The declared name (the `CUSTOM` event's `name`). */
  readonly name: Name;
  /** Identifies the part for replacement; absent, every event adds a part. */
  readonly id?: string;
  /** The value, validated by the declared schema when there is one. */
  readonly data: Data;
}

/** One piece of a message: text, a file, a tool call with its lifecycle, reasoning, activity, data, an interrupt or a subagent. */
export type MessagePart<ToolPart extends ToolCallPart = ToolCallPart, Data extends DataPart = DataPart> =
  TextPart | FilePart | ToolPart | ReasoningPart | ActivityPart | Data | InterruptPart | SubagentPart;

/** Who wrote a message. */
export type ChatRole = 'user' | 'assistant' | 'system';

/**
 * A message as the UI shows it. An assistant message holds a whole turn: text and tool calls of
 * every model step, each part remembering the wire message it came from.
 */
export interface ChatMessage<ToolPart extends ToolCallPart = ToolCallPart, Data extends DataPart = DataPart> {
  readonly id: string;
  readonly role: ChatRole;
  readonly parts: readonly MessagePart<ToolPart, Data>[];
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The text of a message's text parts, concatenated (the agent's own text: subagents' output is theirs). */
export function messageText(message: ChatMessage): string {
  let text = '';
  for (const part of message.parts) if (part.type === 'text' && part.subagentRunId === undefined) text += part.text;
  return text;
}

/** The tool-call parts of a message. */
export function toolCallParts<ToolPart extends ToolCallPart>(message: ChatMessage<ToolPart>): ToolPart[] {
  return message.parts.filter((part): part is ToolPart => part.type === 'tool-call');
}

/** Parses a result's content as JSON when it is JSON, else keeps the text. */
export function parseResultContent(content: string): unknown {
  try {
    return parseJsonStrict(content);
  } catch {
    return content;
  }
}
