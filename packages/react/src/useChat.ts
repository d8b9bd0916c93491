import { startTransition, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  pendingInterrupts,
  pendingInputRequests,
  answerInputRequest,
  fetchServerSentEvents,
  type ActiveRun,
  type AnyTool,
  type ApprovalResponseInput,
  type AttachmentOptions,
  type ChatClient,
  type ChatClientOptions,
  type ChatConnection,
  type ChatMessage,
  type ChatStatus,
  type ChatSnapshot,
  type ChatwireError,
  type DataPart,
  type DataPartSchemas,
  type DataPartsOf,
  type InterruptPart,
  type InputRequestView,
  type InputAnswerInput,
  type QueuedMessage,
  type ReconnectOptions,
  type Resolvable,
  type ToolCallPart,
  type ToolCallPartOf,
  type ToolResultInput,
  type TurnRecord,
} from '@chatwire/core';
import { createId, discoveredToolsInChat } from '@chatwire/core/shared';
import { createBatchedView, type RenderBatching } from './batchedSnapshot.js';
import { ChatDefaultsContext } from './ChatProvider.js';
import { useChatClient, useChatRegistry } from './chatRegistry.js';
import { useToolCatalog, type ToolCatalog } from './useToolCatalog.js';
import { useGrants, type GrantsState } from './useGrants.js';

/** Options of {@link useChat}. Callbacks, `body`, `headers`, `credentials`, `fetch` and `tools` are read fresh on every use. */
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

/** Lazy tools, discovered and not yet. */
export interface DiscoveryView {
  /** Discovered tools, in discovery order (derived from the conversation). */
  readonly discovered: readonly string[];
  /** Lazy tools not discovered yet (from the catalog, or from the browser's own lazy tools). */
  readonly undiscovered: readonly string[];
  /** The catalog, once loaded (when `catalog` is set). */
  readonly catalog: ToolCatalog | undefined;
  readonly isLoading: boolean;
  readonly error: Error | null;
}

/** The data parts `dataParts` declares, typed by their schemas (any data part when none are declared). */
type DataPartsIn<DataParts extends DataPartSchemas> = string extends keyof DataParts
  ? DataPart
  : keyof DataParts extends never
    ? DataPart
    : DataPartsOf<DataParts>;

/** What {@link useChat} returns. */
export interface UseChatResult<Tools extends readonly AnyTool[] = readonly AnyTool[], DataParts extends DataPartSchemas = DataPartSchemas> {
  readonly id: string;
  readonly messages: readonly ChatMessage<ToolCallPartOf<Tools> | ToolCallPart, DataPartsIn<DataParts>>[];
  readonly status: ChatStatus;
  readonly error: ChatwireError | undefined;
  /** Token accounting per turn (see `TurnRecord`). */
  readonly turns: readonly TurnRecord[];
  /**
   * Tool calls waiting for the user's approval. A server's approval says what it offers besides yes
   * or no: `approval.grantOptions` (`once`, `thread`, `always`) and `approval.editable` (edited arguments).
   */
  readonly pendingApprovals: readonly ToolCallPart[];
  /** Answers every pending approval at once (approve all, deny all); they go out in one request. */
  readonly answerAllApprovals: (approved: boolean, reason?: string) => void;
  /** The chat's and the user's grants, with `revoke` (needs the `grants` option). */
  readonly grants: GrantsState;
  /** Interrupts of any other reason waiting for the app's answer (`respondToInterrupt` / `cancelInterrupt`). */
  readonly pendingInterrupts: readonly InterruptPart[];
  /**
   * Server tools' requests for the user's input (MCP elicitation among them) waiting for an answer:
   * each with its message, the JSON Schema of the form, and the call that asked. Answer with
   * `answerInputRequest`. They are also among `pendingInterrupts` (reason `input_request`).
   */
  readonly pendingInputRequests: readonly InputRequestView[];
  /** The agent's shared state (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`); sent back with the next run. */
  readonly agentState: unknown;
  /** Messages waiting in the send queue (`queue: true`), in the order they will be sent. */
  readonly queued: readonly QueuedMessage[];
  /** Resumable streams: the run in flight and the last event applied; save it with the messages to resume after a reload. */
  readonly activeRun: ActiveRun | undefined;
  /** Resumable streams: the chat's resume token; save it with the messages. */
  readonly resumeToken: string | undefined;
  readonly discovery: DiscoveryView;
  /** A saved conversation is loading (`initialMessages` loader). */
  readonly isLoadingMessages: boolean;
  readonly loadError: Error | null;
  /**
   * Sends a message; never rejects (resolves `{ sent: false, error }` while busy, for an empty
   * message or refused files). `sendMessage({ text, files })` attaches files;
   * `sendMessage({ text, messageId })` edits that user message and runs again from it;
   * `sendMessage(message, { body, headers, context })` adds to this turn's requests only.
   */
  readonly sendMessage: ChatClient['sendMessage'];
  readonly regenerate: ChatClient['regenerate'];
  /** Reads the rest of the chat's run in flight (resumable streams); see `ChatClient.resumeStream`. */
  readonly resumeStream: () => Promise<void>;
  /** Takes a message out of the send queue (`false` when it was sent already). */
  readonly cancelQueued: ChatClient['cancelQueued'];
  /** Cancels every queued message. */
  readonly clearQueue: () => void;
  /** Dismisses the current error (`status` turns `ready`). */
  readonly clearError: () => void;
  /** Answers a pending interrupt with the payload its `responseSchema` describes. */
  readonly respondToInterrupt: ChatClient['respondToInterrupt'];
  /** Declines a pending interrupt. */
  readonly cancelInterrupt: ChatClient['cancelInterrupt'];
  /**
   * Answers an input request: `{ id, action: 'accept', content }`, `'decline'` or `'cancel'`. Rejects
   * (recording nothing) when the content does not match the request's schema.
   */
  readonly answerInputRequest: (answer: InputAnswerInput) => Promise<void>;
  /** Replaces the shared state (a value, or a function of the current one). */
  readonly setAgentState: ChatClient['setAgentState'];
  readonly stop: () => void;
  readonly setMessages: ChatClient['setMessages'];
  readonly addToolResult: (result: ToolResultInput) => void;
  readonly addToolApprovalResponse: (response: ApprovalResponseInput) => void;
  /** The underlying client, for advanced use (inspection, devtools). */
  readonly client: ChatClient;
}

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

const resolveLatest = <T>(value: Resolvable<T> | undefined): T | Promise<T> | undefined =>
  typeof value === 'function' ? (value as () => T | Promise<T>)() : value;

/**
 * A chat in a React component: one `ChatClient` per chat id, kept in the chat registry of the
 * nearest `ChatProvider` (or the page's), read through `useSyncExternalStore` with renders batched
 * per animation frame.
 *
 * @example
 * ```tsx
 * const chat = useChat({ api: '/api/chat', tools: [setTheme.client(applyTheme)] });
 * chat.messages.map((message) => <Message key={message.id} message={message} />);
 * <button onClick={() => chat.sendMessage('Hello')} disabled={chat.status === 'streaming'}>Send</button>
 * ```
 */
export function useChat<
  const Tools extends readonly AnyTool[] = readonly AnyTool[],
  const DataParts extends DataPartSchemas = DataPartSchemas,
>(options: UseChatOptions<Tools, DataParts> = {}): UseChatResult<Tools, DataParts> {
  const defaults = useContext(ChatDefaultsContext);
  const merged = { ...defaults, ...options } as UseChatOptions<Tools, DataParts>;
  const [ownId] = useState(() => createId('chat'));
  const id = merged.id ?? ownId;

  // The latest options, read by the client's connection and callbacks at the moment they are needed.
  const latest = useRef(merged);
  useIsomorphicLayoutEffect(() => {
    latest.current = merged;
  });

  // Made once per component, these read the latest options when the client calls them.
  const [bound] = useState(() => ({
    connection: fetchServerSentEvents({
      url: () => latest.current.api ?? '/api/chat',
      headers: () => resolveLatest(latest.current.headers) ?? {},
      body: () => resolveLatest(latest.current.body) ?? {},
      // Read for each request, like headers and body.
      fetch: (input, init) => {
        const { fetch = globalThis.fetch, credentials } = latest.current;
        return fetch(input, credentials ? { ...init, credentials } : init);
      },
    }),
    onFinish: ((info) => latest.current.onFinish?.(info)) as NonNullable<ChatClientOptions['onFinish']>,
    onError: (error: ChatwireError) => latest.current.onError?.(error),
    onToolCall: ((info) => latest.current.onToolCall?.(info)) as NonNullable<ChatClientOptions['onToolCall']>,
    onCustomEvent: ((event) => latest.current.onCustomEvent?.(event)) as NonNullable<ChatClientOptions['onCustomEvent']>,
  }));

  const client = useChatClient(
    id,
    () => ({
      connection: latest.current.connection ?? bound.connection,
      ...(Array.isArray(latest.current.initialMessages) ? { initialMessages: latest.current.initialMessages } : {}),
      ...(latest.current.initialActiveRun ? { initialActiveRun: latest.current.initialActiveRun } : {}),
      ...(latest.current.initialResumeToken ? { initialResumeToken: latest.current.initialResumeToken } : {}),
      ...clientOptions(latest.current),
      onFinish: bound.onFinish,
      onError: bound.onError,
      onToolCall: bound.onToolCall,
      onCustomEvent: bound.onCustomEvent,
    }),
    merged.gcTime === undefined ? {} : { gcTime: merged.gcTime },
  );

  // Props that change reach the same client; it is never re-created for them. This also applies
  // this hook's options to a chat another hook (useChatSelector) created first.
  const { tools, context, maxSteps, manageDiscovery, connection, attachments, dataParts, customEvents, queue, reconnect, history } = merged;
  useIsomorphicLayoutEffect(() => {
    client.updateOptions({
      ...clientOptions({ tools, context, maxSteps, manageDiscovery, attachments, dataParts, customEvents, queue, reconnect, history }),
      connection: connection ?? bound.connection,
      onFinish: bound.onFinish,
      onError: bound.onError,
      onToolCall: bound.onToolCall,
      onCustomEvent: bound.onCustomEvent,
    });
  }, [
    client,
    tools,
    context,
    maxSteps,
    manageDiscovery,
    connection,
    attachments,
    dataParts,
    customEvents,
    queue,
    reconnect,
    history,
    bound,
  ]);
  useIsomorphicLayoutEffect(() => {
    const initial = latest.current.initialMessages;
    if (Array.isArray(initial) && initial.length > 0 && client.getSnapshot().messages.length === 0) client.setMessages(initial);
  }, [client]);
  // Browser calls a restored conversation handed to this page and that never ran run now (in the
  // browser only: effects do not run during server rendering); with `resume`, once the run in
  // flight was read to its end. A loader resumes once it loaded (below).
  useEffect(() => {
    if (latest.current.resume && typeof latest.current.initialMessages !== 'function') void resumeThenRunPending(client);
    else client.runPendingTools();
  }, [client]);

  // Streamed content arrives as a transition: useSyncExternalStore updates are always synchronous,
  // and a navigation transition whose render takes longer than a frame would restart on every one
  // of them, forever while a response streams. Status and error changes stay urgent.
  const [streamed, setStreamed] = useState<ChatSnapshot | undefined>(undefined);
  const view = useMemo(
    () =>
      createBatchedView(
        client,
        () => latest.current.batching ?? 'frame',
        (next) => startTransition(() => setStreamed(next)),
      ),
    [client],
  );
  const snapshot = view.newest(useSyncExternalStore(view.subscribe, view.getSnapshot, view.getSnapshot), streamed);

  // A saved conversation loads once per chat id; every component of the chat shares the load.
  const registry = useChatRegistry();
  const hasLoader = typeof merged.initialMessages === 'function';
  const [load, setLoad] = useState<{ readonly id: string; readonly loaded?: readonly ChatMessage[]; readonly error?: Error }>({ id });
  useEffect(() => {
    const loader = latest.current.initialMessages;
    if (typeof loader !== 'function') return;
    let live = true;
    registry.loadMessages(id, loader).then(
      (messages) => {
        if (!live) return;
        if (messages.length > 0 && client.getSnapshot().messages.length === 0) {
          client.setMessages(messages);
          // The run in flight is read to its end, then browser calls the saved conversation handed to this page and that never ran run now.
          if (latest.current.resume) void resumeThenRunPending(client);
          else client.runPendingTools();
        }
        setLoad({ id, loaded: messages });
      },
      (error: unknown) => {
        if (live) setLoad({ id, error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => {
      live = false;
    };
  }, [registry, client, id, hasLoader]);
  const loadState = load.id === id ? load : { id };
  const isLoadingMessages =
    hasLoader &&
    snapshot.messages.length === 0 &&
    (loadState.error === undefined && loadState.loaded === undefined
      ? true
      : // Until the loaded messages reach the snapshot, the conversation is still loading (no empty flash).
        loadState.loaded !== undefined && loadState.loaded.length > 0);

  const catalog = useToolCatalog(merged.catalog);
  const discovered = useMemo(() => discoveredToolsInChat(snapshot.messages), [snapshot.messages]);
  const pendingApprovals = useMemo(
    () =>
      snapshot.messages.flatMap((message) =>
        message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call' && part.state === 'approval-requested'),
      ),
    [snapshot.messages],
  );
  const interrupts = useMemo(() => pendingInterrupts(snapshot.messages), [snapshot.messages]);
  // Listed again when a turn ends: its answers may have added a grant.
  const grants = useGrants(
    merged.grants,
    id,
    { ...(merged.fetch ? { fetch: merged.fetch } : {}), ...(merged.credentials ? { credentials: merged.credentials } : {}) },
    snapshot.status === 'ready' ? snapshot.messages.length : -1,
  );
  const inputRequests = useMemo(() => pendingInputRequests(snapshot.messages), [snapshot.messages]);
  const lazyNames = catalog.data
    ? catalog.data.tools.filter((tool) => tool.lazy).map((tool) => tool.name)
    : (tools ?? []).filter((tool) => tool.lazy).map((tool) => tool.name);
  const discovery: DiscoveryView = {
    discovered,
    undiscovered: lazyNames.filter((name) => !discovered.includes(name)),
    catalog: catalog.data,
    isLoading: catalog.isLoading,
    error: catalog.error,
  };

  // ChatClient's commands are bound to it: they are passed on as they are.
  const commands = useMemo(
    () => ({
      sendMessage: client.sendMessage,
      regenerate: client.regenerate,
      resumeStream: client.resumeStream,
      cancelQueued: client.cancelQueued,
      clearQueue: client.clearQueue,
      clearError: client.clearError,
      respondToInterrupt: client.respondToInterrupt,
      cancelInterrupt: client.cancelInterrupt,
      answerInputRequest: (answer: InputAnswerInput) => answerInputRequest(client, answer),
      setAgentState: client.setAgentState,
      stop: client.stop,
      setMessages: client.setMessages,
      addToolResult: client.addToolResult,
      addToolApprovalResponse: client.addToolApprovalResponse,
      answerAllApprovals: (approved: boolean, reason?: string) => {
        for (const message of client.getSnapshot().messages) {
          for (const part of message.parts) {
            if (part.type === 'tool-call' && part.state === 'approval-requested' && part.approval)
              client.addToolApprovalResponse({ id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) });
          }
        }
      },
    }),
    [client],
  );

  return {
    id,
    messages: snapshot.messages as UseChatResult<Tools, DataParts>['messages'],
    status: snapshot.status,
    error: snapshot.error,
    turns: snapshot.turns,
    pendingApprovals,
    grants,
    pendingInterrupts: interrupts,
    pendingInputRequests: inputRequests,
    agentState: snapshot.agentState,
    queued: snapshot.queued,
    activeRun: snapshot.activeRun,
    resumeToken: snapshot.resumeToken,
    discovery,
    isLoadingMessages,
    loadError: hasLoader ? (loadState.error ?? null) : null,
    ...commands,
    client,
  };
}

/** Reads the run in flight to its end, then runs the browser calls the saved conversation left. */
async function resumeThenRunPending(client: ChatClient): Promise<void> {
  await client.resumeStream();
  client.runPendingTools();
}

/** The options `useChat` hands on to its client as they are (one that is `undefined` is left out). */
const CLIENT_OPTIONS = [
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

function clientOptions(options: Pick<UseChatOptions, (typeof CLIENT_OPTIONS)[number]>): Partial<ChatClientOptions> {
  const picked: Record<string, unknown> = {};
  for (const key of CLIENT_OPTIONS) if (options[key] !== undefined) picked[key] = options[key];
  return picked as Partial<ChatClientOptions>;
}
