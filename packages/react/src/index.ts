export { useChat } from './useChat.js';
export type { UseChatOptions, UseChatResult } from './useChat.js';
