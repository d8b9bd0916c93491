import type {
  ActiveRun,
  AnyTool,
  AttachmentOptions,
  ChatClientOptions,
  ChatConnection,
  ChatMessage,
  ChatwireError,
  DataPartSchemas,
  ReconnectOptions,
  Resolvable,
} from '@chatwire/core';
import type { RenderBatching } from './batchedSnapshot.js';

/** Options of `useChat`. Callbacks, `body`, `headers`, `credentials`, `fetch` and `tools` are read fresh on every use. */
export interface UseChatOptions<
  Tools extends readonly AnyTool[] = readonly AnyTool[],
  DataParts extends DataPartSchemas = DataPartSchemas,
> {
  /** The chat's id (AG-UI `threadId`). Components with the same id share one chat. Defaults to a per-component id. */
  readonly id?: string;
  /** The endpoint for the default fetch + SSE connection. Defaults to `/api/chat`. */
  readonly api?: string;
  /** A connection of your own instead of fetch + SSE to `api`. */
  readonly connection?: ChatConnection;
  /** Extra request headers (the latest value is used for each request). */
  readonly headers?: Resolvable<Record<string, string>>;
  /** Extra values for the run input's `forwardedProps` (the latest value is used for each request). */
  readonly body?: Resolvable<Record<string, unknown>>;
  /** Fetch credentials mode of the default connection (e.g. `include` for a chat API on another origin with cookies). Defaults to `same-origin`. */
  readonly credentials?: RequestInit['credentials'];
  /** The `fetch` the default connection uses (the latest one for each request). Defaults to `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * The conversation to start from: messages, or a loader for a saved conversation (called once per
   * chat id and registry, shared by every component of the chat; see `isLoadingMessages` /
   * `loadError`). Ignored once the chat has messages.
   */
  readonly initialMessages?: readonly ChatMessage[] | ((id: string) => Promise<readonly ChatMessage[]>);
  /**
   * Resumable streams: on mount (after a `initialMessages` loader, once it loaded), read the rest of
   * the chat's run in flight with `resumeStream()`, e.g. after a reload. Needs the saved
   * `initialActiveRun` and `initialResumeToken` (or a chat that has them). Defaults to `false`.
   */
  readonly resume?: boolean;
  /** Resumable streams: the saved `activeRun` (see `ChatClientOptions.initialActiveRun`). Defaults to none. */
  readonly initialActiveRun?: ActiveRun;
  /** Resumable streams: the saved `resumeToken`. Defaults to none. */
  readonly initialResumeToken?: string;
  /** Resumable streams: reconnection after a dropped connection (`ReconnectOptions`), or `false`. Defaults to 5 tries with backoff from 0.5 s to 5 s. */
  readonly reconnect?: ReconnectOptions | false;
  /** Browser tools (`.client(impl)`) and definitions the app answers with `addToolResult`. Typed parts follow from these. */
  readonly tools?: Tools;
  /** AG-UI context entries sent with every run. */
  readonly context?: ChatClientOptions['context'];
  /** Automatic continuations per user message. Defaults to 10. */
  readonly maxSteps?: number;
  /** Keep the lazy-tool catalog in the browser (works with any AG-UI server). Defaults to off. */
  readonly manageDiscovery?: ChatClientOptions['manageDiscovery'];
  /** Limits of `sendMessage({ files })` and the upload hook. Defaults to inline files of at most 2 MiB, 3 MiB per message. */
  readonly attachments?: AttachmentOptions;
  /**
   * `CUSTOM` events that become typed `data` parts of the assistant message, by name: a Standard
   * Schema the value's `data` must pass, or `true`. Defaults to none.
   */
  readonly dataParts?: DataParts;
  /**
   * Extensions whose `CUSTOM` events build state on the tool call they are about
   * (`part.extensions[name]`), such as Code Mode's `codeModeEvents` (`@chatwire/code-mode/client`).
   * Keep the array stable (a module constant, or on `ChatProvider`). Defaults to none.
   */
  readonly customEvents?: ChatClientOptions['customEvents'];
  /** Queue messages sent while a response is in progress (see `queued`, `cancelQueued`). Defaults to `false` (refused as `busy`). */
  readonly queue?: boolean;
  /**
   * Which messages a request carries (`ChatClient`'s `history`): `'stored'`, from the last one the
   * server's thread store has on, once it said which; `'full'`, always all of them. Defaults to `'stored'`.
   */
  readonly history?: ChatClientOptions['history'];
  /** The tool catalog endpoint (`GET`, e.g. `/api/tools`) for the discovery view. Defaults to none. */
  readonly catalog?: string;
  /** The grants endpoint (`createGrantsHandler`, e.g. `/api/grants`) for `grants`. Defaults to none (an empty list). */
  readonly grants?: string;
  /** Called when a turn ends with nothing left to do. */
  readonly onFinish?: ChatClientOptions['onFinish'];
  /** Called when a turn ends in an error. */
  readonly onError?: (error: ChatwireError) => void;
  /** Called when a tool call's input is complete. */
  readonly onToolCall?: ChatClientOptions['onToolCall'];
  /** Called with every AG-UI `CUSTOM` event, in stream order. */
  readonly onCustomEvent?: ChatClientOptions['onCustomEvent'];
  /**
   * How renders follow the stream. Defaults to `frame`: streamed content renders at most once per
   * animation frame, as a transition (so it never starves your navigation transitions), while
   * status and error changes render at once. `none` renders every change at once, synchronously.
   */
  readonly batching?: RenderBatching;
  /** How long a chat no component uses stays alive before it is disposed, in ms. Defaults to 5 minutes. */
  readonly gcTime?: number;
}

/**
 * The options `useChat` hands on to its client as they are (one that is `undefined` is left out):
 * given when the client is made, and again (with `connection`) whenever one of them changes.
 */
export const CLIENT_OPTIONS = [
  'tools',
  'context',
  'maxSteps',
  'manageDiscovery',
  'attachments',
  'dataParts',
  'customEvents',
  'queue',
  'history',
  'reconnect',
] as const satisfies readonly (keyof UseChatOptions & keyof ChatClientOptions)[];

/** The options of {@link CLIENT_OPTIONS} that are set. */
export function clientOptions(options: Pick<UseChatOptions, (typeof CLIENT_OPTIONS)[number]>): Partial<ChatClientOptions> {
  const picked: Record<string, unknown> = {};
  for (const key of CLIENT_OPTIONS) if (options[key] !== undefined) picked[key] = options[key];
  return picked as Partial<ChatClientOptions>;
}
