import type { Context } from '@ag-ui/core';
import { initialChatState, type ActiveRun, type ChatState } from '../model/chatState.js';
import type { ChatConnection } from '../transport/connection.js';
import type { ClientDiscovery } from '../discovery/clientManaged.js';
import type { ChatwireError } from '../base/errors.js';
import type { ChatMessage } from '../model/messages.js';
import type { AttachmentOptions } from './attachments.js';
import type { CustomEventExtension } from '../reduce/customEvents.js';
import type { DataPartSchemas } from '../reduce/dataParts.js';
import type { ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { AnyTool } from '../tools/toolDefinition.js';
import type { HistoryMode, ReconnectOptions } from './runRequest.js';

/** Options of `ChatClient`. Every callback is read at call time, so updates apply at once. */
export interface ChatClientOptions {
  /** How runs reach the agent, e.g. `fetchServerSentEvents('/api/chat')`. */
  readonly connection: ChatConnection;
  /** The conversation id, sent as the AG-UI `threadId`. Defaults to a random id. */
  readonly id?: string;
  /** Messages to start from (a saved conversation). Defaults to none. */
  readonly initialMessages?: readonly ChatMessage[];
  /**
   * Resumable streams: the saved `snapshot.activeRun` to start from (the run that was in flight
   * when the page went away), which `resumeStream()` reads again. Defaults to none.
   */
  readonly initialActiveRun?: ActiveRun;
  /** Resumable streams: the saved `snapshot.resumeToken` to start from. Defaults to none (the server issues one with the first run). */
  readonly initialResumeToken?: string;
  /**
   * Thread stores: the id of the last message of `initialMessages` that the server has stored (an app
   * that loads a stored thread itself passes its last message's id), which `snapshot.storedMessageId`
   * starts from. Defaults to none: until the server's `chatwire.thread.stored` event names one, every
   * request carries the whole chat.
   */
  readonly initialStoredMessageId?: string;
  /**
   * Which messages a request carries: `'stored'`, the messages from the last one the server has
   * stored on (`snapshot.storedMessageId`, while it is in the chat), else all of them; `'full'`,
   * always all of them (AG-UI's usual request). A server without a thread store never names a stored
   * message, so it always gets all of them. Defaults to `'stored'`.
   */
  readonly history?: HistoryMode;
  /**
   * Resumable streams: reconnect to a run whose connection dropped before it ended, when the server
   * announced resumable streams (see `ReconnectOptions`), or `false` to fail at once as before.
   * Defaults to 5 tries, waiting 0.5 s, 1 s, 2 s, 4 s and 5 s.
   */
  readonly reconnect?: ReconnectOptions | false;
  /**
   * Tools the browser knows: `.client(impl)` tools run here; bare definitions are announced to the
   * agent and answered with `addToolResult`. Defaults to none.
   */
  readonly tools?: readonly AnyTool[];
  /** AG-UI context entries sent with every run. Defaults to none. */
  readonly context?: readonly Context[];
  /** Automatic continuations (after client tools or approvals) allowed per user message. Defaults to 10. */
  readonly maxSteps?: number;
  /** Called when a turn ends with nothing left to do. */
  readonly onFinish?: (info: { readonly message: ChatMessage | undefined; readonly messages: readonly ChatMessage[] }) => void;
  /** Called when a turn ends in an error (the error is also in the snapshot). */
  readonly onError?: (error: ChatwireError) => void;
  /** Called when a tool call's input is complete, for every tool; answer app-handled ones with `addToolResult`. */
  readonly onToolCall?: (info: { readonly toolCall: ToolCallPart }) => void;
  /**
   * Called with every AG-UI `CUSTOM` event, in stream order, after it was applied (Chatwire's own
   * `chatwire.*` events included). Defaults to none.
   */
  readonly onCustomEvent?: (event: { readonly name: string; readonly value: unknown; readonly runId: string }) => void;
  /** Receives development warnings (refused transitions). Defaults to `console.warn` outside production. */
  readonly onWarning?: (message: string) => void;
  /**
   * Client-managed discovery: keep the catalog of lazy `tools` here, send only eager tools plus a
   * discovery tool, answer discovery calls locally, and send discovered tools' definitions on later
   * runs (`clientDiscovery()`, imported only by apps that use it). Works with any AG-UI server that
   * forwards frontend tools. Defaults to off (the server manages).
   */
  readonly manageDiscovery?: ClientDiscovery;
  /** Limits of `sendMessage({ files })` and the upload hook (see `AttachmentOptions`). Defaults to inline files of at most 2 MiB, 3 MiB per message. */
  readonly attachments?: AttachmentOptions;
  /**
   * `CUSTOM` events that become `data` parts of the assistant message, by name: a Standard Schema
   * the value's `data` must pass, or `true`. An event with the `id` of an earlier part replaces it;
   * an invalid one is dropped with a development warning. Defaults to none.
   */
  readonly dataParts?: DataPartSchemas;
  /**
   * Extensions whose `CUSTOM` events build state on the tool call they are about
   * (`part.extensions[name]`), such as Code Mode's `codeModeEvents` from `@chatwire/code-mode/client`:
   * plain data (a name, the prefix of its event names, a loader of its reducer), loaded while the
   * client's first run is under way. Events of an extension not listed here change nothing.
   * Defaults to none.
   */
  readonly customEvents?: readonly CustomEventExtension[];
  /**
   * Queue messages sent while a response is in progress and send them in order once the chat is
   * free (`snapshot.queued`; `cancelQueued(id)`, `clearQueue()`). A stopped or failed turn pauses
   * the queue until the next send. Defaults to `false`: such a send is refused with `busy`.
   */
  readonly queue?: boolean;
}

/** What `ChatClient.updateOptions` may replace: everything but what the chat starts from. */
export type UpdatableChatClientOptions = Partial<
  Omit<ChatClientOptions, 'id' | 'initialMessages' | 'initialActiveRun' | 'initialResumeToken' | 'initialStoredMessageId'>
>;

/** The state a client starts from: its `initial*` options (a saved conversation), else an empty chat. */
export function initialStateOf(options: ChatClientOptions): ChatState {
  return {
    ...initialChatState(options.initialMessages),
    activeRun: options.initialActiveRun,
    resumeToken: options.initialResumeToken,
    storedMessageId: options.initialStoredMessageId,
  };
}
