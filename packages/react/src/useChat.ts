import { startTransition, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  pendingInterrupts,
  pendingInputRequests,
  answerInputRequest,
  fetchServerSentEvents,
  type AnyTool,
  type ChatClient,
  type ChatClientOptions,
  type ChatMessage,
  type ChatSnapshot,
  type ChatwireError,
  type DataPartSchemas,
  type InputAnswerInput,
  type Resolvable,
} from '@chatwire/core';
import { answerAllApprovals, createId, discoveredToolsInChat, pendingApprovals } from '@chatwire/core/shared';
import { createBatchedView } from './batchedSnapshot.js';
import { ChatDefaultsContext } from './ChatProvider.js';
import { useChatClient, useChatRegistry } from './chatRegistry.js';
import { useToolCatalog } from './useToolCatalog.js';
import { useGrants } from './useGrants.js';
import { CLIENT_OPTIONS, clientOptions, type UseChatOptions } from './useChatOptions.js';
import type { DiscoveryView, UseChatResult } from './useChatResult.js';

export type { UseChatOptions } from './useChatOptions.js';
export type { DiscoveryView, UseChatResult } from './useChatResult.js';

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
      ...(Array.isArray(latest.current.initialMessages) ? { initialMessages: latest.current.initialMessages } : {}),
      ...(latest.current.initialActiveRun ? { initialActiveRun: latest.current.initialActiveRun } : {}),
      ...(latest.current.initialResumeToken ? { initialResumeToken: latest.current.initialResumeToken } : {}),
      ...updatableOptions(latest.current, bound),
    }),
    merged.gcTime === undefined ? {} : { gcTime: merged.gcTime },
  );

  // Props that change reach the same client; it is never re-created for them. This also applies
  // this hook's options to a chat another hook (useChatSelector) created first. `latest` holds
  // them already: the effect above runs first.
  // The deps are the updatable options, listed once (UPDATABLE_OPTIONS).
  const updated = UPDATABLE_OPTIONS.map((key) => merged[key]);
  useIsomorphicLayoutEffect(() => {
    client.updateOptions(updatableOptions(latest.current, bound));
  }, [client, bound, ...updated]);
  useIsomorphicLayoutEffect(() => {
    const initial = latest.current.initialMessages;
    if (Array.isArray(initial)) seedMessages(client, initial);
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
        if (seedMessages(client, messages)) {
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
  const approvals = useMemo(() => pendingApprovals(snapshot.messages), [snapshot.messages]);
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
    : (merged.tools ?? []).filter((tool) => tool.lazy).map((tool) => tool.name);
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
      answerAllApprovals: (approved: boolean, reason?: string) => answerAllApprovals(client, approved, reason),
    }),
    [client],
  );

  return {
    id,
    messages: snapshot.messages as UseChatResult<Tools, DataParts>['messages'],
    status: snapshot.status,
    error: snapshot.error,
    turns: snapshot.turns,
    pendingApprovals: approvals,
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

/** What `useChat` gives its client when it is made and whenever one of these changes: `connection` and {@link CLIENT_OPTIONS}. */
const UPDATABLE_OPTIONS = ['connection', ...CLIENT_OPTIONS] as const;

/** The client's options that follow the hook's: its own connection (or the default one) and callbacks, and {@link CLIENT_OPTIONS}. */
function updatableOptions(
  options: UseChatOptions,
  bound: Required<Pick<ChatClientOptions, 'connection' | 'onFinish' | 'onError' | 'onToolCall' | 'onCustomEvent'>>,
): ChatClientOptions {
  return { ...clientOptions(options), ...bound, connection: options.connection ?? bound.connection };
}

/** Gives an empty chat the conversation to start from (none of it when the chat has messages); whether it did. */
function seedMessages(client: ChatClient, messages: readonly ChatMessage[]): boolean {
  if (messages.length === 0 || client.getSnapshot().messages.length > 0) return false;
  client.setMessages(messages);
  return true;
}
