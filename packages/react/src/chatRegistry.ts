import { createContext, useContext, useEffect, useState } from 'react';
import { ChatClient, fetchToolCatalog, type ChatClientOptions, type ChatMessage } from '@chatwire/core';
import { type ToolCatalog } from '@chatwire/core/shared';

/** Defaults to five minutes: how long a chat no component uses stays alive. */
const DEFAULT_GC_TIME = 5 * 60_000;

/** Timers only run in a browser: on a server the registry lives as long as its request's render. */
const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined';

interface Entry {
  readonly client: ChatClient;
  /** Mounted components using the chat. */
  users: number;
  gcTime: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The saved conversation's load, shared by every component of the chat. */
  load: Promise<readonly ChatMessage[]> | undefined;
}

/** The state of one tool catalog load. */
export interface CatalogState {
  readonly data: ToolCatalog | undefined;
  readonly error: Error | null;
  readonly isLoading: boolean;
}

interface CatalogEntry {
  state: CatalogState;
  started: boolean;
  readonly listeners: Set<() => void>;
}

/**
 * The live chats of one app (or one server-side request): one `ChatClient` per chat id, created
 * when the first component asks for it, shared by every component using the id, and disposed once
 * no component has used it for its `gcTime`. Hand-written rather than kept in React Query: a live
 * client is not serialisable server state (a dehydrated cache turned it into `{"id":"x"}`), and
 * scoping it to a provider is what keeps one request's chats out of another's HTML.
 *
 * @example
 * ```tsx
 * const registry = createChatRegistry();
 * <ChatProvider registry={registry}><App /></ChatProvider>;
 * registry.get('support')?.getSnapshot().messages;
 * ```
 */
export class ChatRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #catalogs = new Map<string, CatalogEntry>();

  /** The live client of chat `id`, if one exists. */
  get(id: string): ChatClient | undefined {
    return this.#entries.get(id)?.client;
  }

  /** The ids of the live chats, oldest first. */
  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * The client of chat `id`, created with `create()` the first time. Safe to call while rendering:
   * it is idempotent, and a client no component ever mounts with is disposed after `gcTime`.
   */
  acquire(id: string, create: () => ChatClientOptions, gcTime = DEFAULT_GC_TIME): ChatClient {
    let entry = this.#entries.get(id);
    if (!entry) {
      entry = { client: new ChatClient({ ...create(), id }), users: 0, gcTime, timer: undefined, load: undefined };
      this.#entries.set(id, entry);
      this.#scheduleRemoval(id, entry);
    } else {
      entry.gcTime = Math.max(entry.gcTime, gcTime);
    }
    return entry.client;
  }

  /** Marks chat `id` as used by a mounted component; call the returned function on unmount. */
  retain(id: string, client: ChatClient): () => void {
    let entry = this.#entries.get(id);
    if (!entry) {
      // Collected between render and mount (no one used it for gcTime): the mounting component brings it back.
      entry = { client, users: 0, gcTime: DEFAULT_GC_TIME, timer: undefined, load: undefined };
      this.#entries.set(id, entry);
    }
    // Another client took the id meanwhile: this component keeps its own, which the registry does not own.
    if (entry.client !== client) return () => {};
    const retained = entry;
    entry.users++;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      retained.users--;
      if (retained.users === 0) this.#scheduleRemoval(id, retained);
    };
  }

  /** Loads chat `id`'s saved conversation once; every component of the chat shares the promise. */
  loadMessages(id: string, loader: (id: string) => Promise<readonly ChatMessage[]>): Promise<readonly ChatMessage[]> {
    const entry = this.#entries.get(id);
    const load = entry?.load ?? Promise.resolve().then(() => loader(id));
    if (entry) entry.load = load;
    // A failed load is forgotten, so the next component that mounts tries again.
    load.catch(() => {
      if (entry?.load === load) entry.load = undefined;
    });
    return load;
  }

  /** Disposes every chat and forgets every catalog. */
  dispose(): void {
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.timer);
      entry.client.dispose();
    }
    this.#entries.clear();
    this.#catalogs.clear();
  }

  #scheduleRemoval(id: string, entry: Entry): void {
    if (!inBrowser() || !Number.isFinite(entry.gcTime)) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (entry.users > 0 || this.#entries.get(id) !== entry) return;
      this.#entries.delete(id);
      entry.client.dispose();
    }, entry.gcTime);
  }

  /** @internal The catalog at `url`: its state, and a subscription to its changes. */
  catalog(url: string): {
    readonly getState: () => CatalogState;
    readonly subscribe: (listener: () => void) => () => void;
    readonly start: () => void;
  } {
    let entry = this.#catalogs.get(url);
    if (!entry) {
      entry = { state: { data: undefined, error: null, isLoading: true }, started: false, listeners: new Set() };
      this.#catalogs.set(url, entry);
    }
    const current = entry;
    const set = (state: CatalogState) => {
      current.state = state;
      for (const listener of current.listeners) listener();
    };
    return {
      getState: () => current.state,
      subscribe: (listener) => {
        current.listeners.add(listener);
        return () => current.listeners.delete(listener);
      },
      start: () => {
        // Loaded once per registry; after a failure, the next component that mounts tries again.
        if (current.started && !current.state.error) return;
        current.started = true;
        if (current.state.error) set({ data: undefined, error: null, isLoading: true });
        void fetchToolCatalog(url).then(
          (data) => set({ data, error: null, isLoading: false }),
          (error: unknown) => set({ data: undefined, error: error instanceof Error ? error : new Error(String(error)), isLoading: false }),
        );
      },
    };
  }
}

/**
 * Creates an empty chat registry, for `<ChatProvider registry={...}>`: one per app in the browser,
 * one per request on a server.
 *
 * @example
 * ```tsx
 * const registry = createChatRegistry();
 * ```
 */
export function createChatRegistry(): ChatRegistry {
  return new ChatRegistry();
}

/** @internal The registry `ChatProvider` puts in context. */
export const ChatRegistryContext = createContext<ChatRegistry | undefined>(undefined);

let pageRegistry: ChatRegistry | undefined;

/**
 * The registry chats live in: the nearest `ChatProvider`'s; without one, in a browser, the page's
 * own (one user per page, so sharing is safe); on a server without one, a registry of this
 * component alone, so nothing is ever shared between requests.
 */
export function useChatRegistry(): ChatRegistry {
  const fromContext = useContext(ChatRegistryContext);
  const [own] = useState(() => (fromContext || inBrowser() ? undefined : new ChatRegistry()));
  if (fromContext) return fromContext;
  if (own) return own;
  pageRegistry ??= new ChatRegistry();
  return pageRegistry;
}

/**
 * The one `ChatClient` of chat `id` in the current registry: created when the first component
 * asks for it (never per render), shared by every component using the id, retained while mounted.
 * Remounting re-attaches to the live client, stream included.
 *
 * @example
 * ```tsx
 * const client = useChatClient('support', () => ({ connection: fetchServerSentEvents('/api/chat') }));
 * ```
 */
export function useChatClient(id: string, create: () => ChatClientOptions, options: { readonly gcTime?: number } = {}): ChatClient {
  const registry = useChatRegistry();
  const client = registry.acquire(id, create, options.gcTime);
  useEffect(() => registry.retain(id, client), [registry, id, client]);
  return client;
}
