import type { Context } from '@ag-ui/core';
import type { ChatwireError } from '../base/errors.js';
import type { FileInput } from '../model/messages.js';
import type { GrantOption } from '../protocol/chatwireProtocol.js';

/** Arguments of `ChatClient.addToolResult`: an output, or an error for the model. */
export type ToolResultInput =
  { readonly toolCallId: string; readonly output: unknown } | { readonly toolCallId: string; readonly error: string };

/**
 * What `sendMessage` and `regenerate` resolve with: `sent` once the turn came to rest (finished,
 * failed with the error in the snapshot, stopped, or waiting on the user), or a refusal (`busy`
 * while a response streams, `invalid-argument` for empty text) that changed nothing. Never rejects.
 */
export type SendResult = { readonly sent: true } | { readonly sent: false; readonly error: ChatwireError };

/** What `ChatClient.sendMessage` takes besides a plain string. */
export interface SendMessageInput {
  /** The message text; may be empty when `files` are attached. */
  readonly text?: string;
  /**
   * Files to attach (a `FileList` from an `<input type="file">`, `File`s, `Blob`s, or `{ url }`):
   * they become `file` parts and travel as AG-UI image, audio, video or document parts. Checked
   * against `attachments` limits first; a refused send changes nothing. An edit replaces the files
   * too: pass the message's `file` parts (valid `{ url }` inputs) to keep them. (Typed as `ArrayLike`,
   * which a `FileList` is, so the types need no DOM library.)
   */
  readonly files?: ArrayLike<FileInput>;
  /** Kept on the user message (yours to read back; not sent to the agent). */
  readonly metadata?: Record<string, unknown>;
  /**
   * Edit and run again: the new text replaces the user message with this id, as a new message (its
   * own id), and the conversation runs again from it; every message after it is dropped.
   */
  readonly messageId?: string;
}

/**
 * Options of one send (`sendMessage(message, options)`, `regenerate(options)`): they apply to the
 * requests of that turn (its automatic continuations included), never to later messages.
 */
export interface SendOptions {
  /** Merged into the run input's `forwardedProps` (over the connection's own `body`). */
  readonly body?: Record<string, unknown>;
  /** Request headers (over the connection's own `headers`). */
  readonly headers?: Record<string, string>;
  /** AG-UI context entries sent after the client's `context`. */
  readonly context?: readonly Context[];
}

/** Arguments of `ChatClient.addToolApprovalResponse`. */
export interface ApprovalResponseInput {
  /** The approval id, `part.approval.id`. */
  readonly id: string;
  readonly approved: boolean;
  /** Shown to the model when the call is denied. */
  readonly reason?: string;
  /** A server's approval (see `part.approval.editable`): approve with these arguments instead (a full replacement). */
  readonly editedArgs?: Readonly<Record<string, unknown>>;
  /** A server's approval: remember the answer for this chat (`thread`) or always (one of `part.approval.grantOptions`). */
  readonly grant?: GrantOption;
  /** With `grant`: only for these exact arguments. */
  readonly grantArguments?: boolean;
}
