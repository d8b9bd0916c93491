import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ThreadsError,
  branchAt,
  switchBranch,
  threadMessages,
  type AnyTool,
  type BranchPoint,
  type BranchView,
  type ChatMessage,
  type DataPartSchemas,
  type ThreadDetail,
} from '@chatwire/core';
import { useChat, type UseChatOptions, type UseChatResult } from '../useChat.js';
import { apiOf, threadKeys, threadQueryOptions, threadsClientOf, type ThreadsQueryConfig } from './threadQueries.js';

/** Options of {@link useThreadChat}: `useChat`'s, with the thread id required and the threads endpoint. */
export interface UseThreadChatOptions<
  Tools extends readonly AnyTool[] = readonly AnyTool[],
  DataParts extends DataPartSchemas = DataPartSchemas,
> extends Omit<UseChatOptions<Tools, DataParts>, 'id' | 'initialMessages'> {
  /** The thread's id: the chat id (AG-UI `threadId`) the server files its runs under. A new id is a new thread. */
  readonly id: string;
  /**
   * Messages to show at once instead of loading the thread's, for example the page's own copy saved
   * with a run in flight (`initialActiveRun`) to resume after a reload. Defaults to loading the thread.
   */
  readonly initialMessages?: readonly ChatMessage[];
  /**
   * The app just made this id up for a new conversation: nothing is read from the server until its
   * first run ends (a thread that does not exist yet would answer 404). Read when the hook mounts.
   * Defaults to `false`.
   */
  readonly newThread?: boolean;
  /** The threads endpoint and how to call it. Defaults to `/api/threads` with the page's `fetch`. */
  readonly threads?: ThreadsQueryConfig;
}

/** What {@link useThreadChat} returns: `useChat`'s result plus the thread and its branches. */
export interface UseThreadChatResult<
  Tools extends readonly AnyTool[] = readonly AnyTool[],
  DataParts extends DataPartSchemas = DataPartSchemas,
> extends UseChatResult<Tools, DataParts> {
  /** The thread as the server last sent it (`undefined` before its first run, or while it loads). */
  readonly thread: ThreadDetail | undefined;
  /** The branch points of the active branch (messages with siblings). */
  readonly branches: readonly BranchPoint[];
  /** A message's place among its siblings (a UI message, or a wire id), for a branch picker; `undefined` when it has none. */
  readonly branchAt: (message: string | ChatMessage) => BranchView | undefined;
  /**
   * Shows the branch through `messageId` (a sibling from `branchAt`): the server makes it active, then
   * it replaces the messages. Rejects (changing nothing) while a response is in progress or when the
   * server refuses.
   */
  readonly switchBranch: (messageId: string) => Promise<void>;
}

/**
 * A chat kept on the server as a thread: `useChat` whose conversation loads from the thread (through
 * React Query, shared with `useThread`), whose list and thread queries are read again whenever a run
 * ends, and which shows the thread's branches and switches between them. Editing a message
 * (`sendMessage({ text, messageId })`) or `regenerate()` makes a sibling on the server; the chat shows
 * the new branch, and the old one stays a `switchBranch` away.
 *
 * @example
 * ```tsx
 * const chat = useThreadChat({ id: threadId, api: '/api/chat', threads: { api: '/api/threads' } });
 * const view = chat.branchAt(message); // { index, count, previous, next } or undefined
 * <button disabled={!view?.next} onClick={() => chat.switchBranch(view!.next!)}>›</button>;
 * ```
 */
export function useThreadChat<
  const Tools extends readonly AnyTool[] = readonly AnyTool[],
  const DataParts extends DataPartSchemas = DataPartSchemas,
>(options: UseThreadChatOptions<Tools, DataParts>): UseThreadChatResult<Tools, DataParts> {
  const { threads: config, newThread = false, ...chatOptions } = options;
  const queryClient = useQueryClient();
  const api = apiOf(config);
  const id = options.id;
  const configKey = JSON.stringify([api, config?.credentials, config?.headers]);
  // The options object is new on every render; the config it holds changes rarely.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableConfig = useMemo(() => config, [configKey, config?.fetch]);

  // A new thread exists on the server once its first run ended.
  const [exists, setExists] = useState(!newThread);
  const existsNow = useRef(exists);
  const loader = useCallback(
    async (threadId: string): Promise<readonly ChatMessage[]> => {
      if (!existsNow.current) return [];
      try {
        return threadMessages(await queryClient.fetchQuery(threadQueryOptions(threadId, stableConfig)));
      } catch (error) {
        // A thread that does not exist yet is a new one: it starts empty, and the server creates it on its first run.
        if (error instanceof ThreadsError && error.code === 'unknown-thread') return [];
        throw error;
      }
    },
    [queryClient, stableConfig],
  );
  const own = chatOptions.initialMessages;
  const chat = useChat<Tools, DataParts>({ ...chatOptions, id, initialMessages: own && own.length > 0 ? own : loader });
  const thread = useQuery({ ...threadQueryOptions(id, stableConfig), enabled: exists });

  // When a run ends, the server has written its turn: the list (order, default title) and the thread (branches) change.
  const { client } = chat;
  useEffect(() => {
    let running = false;
    const check = () => {
      const { status } = client.getSnapshot();
      const nowRunning = status === 'submitted' || status === 'streaming';
      if (running && !nowRunning) {
        existsNow.current = true;
        setExists(true);
        void queryClient.invalidateQueries({ queryKey: threadKeys.lists(api) });
        void queryClient.invalidateQueries({ queryKey: threadKeys.detail(api, client.id) });
      }
      running = nowRunning;
    };
    check();
    return client.subscribe(check);
  }, [client, queryClient, api]);

  const detail = thread.data;
  // Every message of the thread as the server sent it is stored: requests carry only what follows its last one.
  const leaf = detail?.messages.at(-1)?.id;
  useEffect(() => {
    if (leaf !== undefined) client.setStoredMessageId(leaf);
  }, [client, leaf]);
  // The thread's turns with their token accounting (a reload, a thread opened from the list): devtools shows them again.
  // Read again when the messages arrive (a thread loads its messages and its detail on their own schedules).
  const storedTurns = detail?.turns;
  const messageCount = chat.messages.length;
  useEffect(() => {
    if (storedTurns?.length && messageCount) void client.restoreTurns(storedTurns);
  }, [client, storedTurns, messageCount]);
  const branches = useMemo(() => detail?.branches ?? [], [detail]);
  const at = useCallback((message: string | ChatMessage) => branchAt(branches, message), [branches]);
  const switchTo = useCallback(
    async (messageId: string) => {
      const next = await switchBranch(client, threadsClientOf(stableConfig), messageId);
      queryClient.setQueryData(threadKeys.detail(api, client.id), next);
      void queryClient.invalidateQueries({ queryKey: threadKeys.lists(api) });
    },
    [client, queryClient, api, stableConfig],
  );

  return { ...chat, thread: detail, branches, branchAt: at, switchBranch: switchTo };
}
