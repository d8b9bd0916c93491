import { createContext, useContext, useState, type ReactNode } from 'react';
import { ChatRegistry, ChatRegistryContext } from './chatRegistry.js';
import type { UseChatOptions } from './useChat.js';

/** Defaults every `useChat` below a {@link ChatProvider} starts from. */
export type ChatDefaults = Omit<UseChatOptions, 'id' | 'initialMessages'>;

/** @internal The context behind {@link ChatProvider}'s defaults. */
export const ChatDefaultsContext = createContext<ChatDefaults>({});

/** Props of {@link ChatProvider}: defaults for every `useChat` below it, and where its chats live. */
export type ChatProviderProps = ChatDefaults & {
  /**
   * The registry the chats below live in. Defaults to the enclosing provider's, or a new one for
   * this provider (so each server-side render of an app root has its own).
   */
  readonly registry?: ChatRegistry;
  readonly children?: ReactNode;
};

/**
 * Scopes chats to your app and sets defaults (endpoint, headers, tools, batching...) for every
 * `useChat` and `useChatSelector` below it. Chats with the same id below one provider are one chat;
 * two providers (two server-side requests) never share one.
 *
 * @example
 * ```tsx
 * <ChatProvider api="/api/chat" catalog="/api/tools"><App /></ChatProvider>
 * ```
 */
export function ChatProvider(props: ChatProviderProps) {
  const { children, registry: given, ...defaults } = props;
  const outer = useContext(ChatRegistryContext);
  const [own] = useState(() => new ChatRegistry());
  const registry = given ?? outer ?? own;
  return (
    <ChatRegistryContext.Provider value={registry}>
      <ChatDefaultsContext.Provider value={defaults}>{children}</ChatDefaultsContext.Provider>
    </ChatRegistryContext.Provider>
  );
}
