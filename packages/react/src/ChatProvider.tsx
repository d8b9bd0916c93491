import { createContext, type ReactNode } from 'react';
import type { UseChatOptions } from './useChat.js';

/** Defaults every `useChat` below a {@link ChatProvider} starts from. */
export type ChatDefaults = Omit<UseChatOptions, 'id' | 'initialMessages'>;

/** @internal The context behind {@link ChatProvider}. */
export const ChatDefaultsContext = createContext<ChatDefaults>({});

/**
 * Sets defaults (endpoint, headers, tools, batching...) for every `useChat` and `useChatSelector`
 * below it. Chats themselves live in the app's QueryClient (or Chatwire's shared default one).
 *
 * @example
 * ```tsx
 * <QueryClientProvider client={queryClient}>
 *   <ChatProvider api="/api/chat" catalog="/api/tools"><App /></ChatProvider>
 * </QueryClientProvider>
 * ```
 */
export function ChatProvider(props: ChatDefaults & { readonly children?: ReactNode }) {
  const { children, ...defaults } = props;
  return <ChatDefaultsContext.Provider value={defaults}>{children}</ChatDefaultsContext.Provider>;
}
