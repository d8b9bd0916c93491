import type { CustomEventExtension, ToolCallPart } from '@chatwire/core';
import type { CodeExecution } from './codeExecution.js';
import { CODE_MODE_EVENT_PREFIX } from './codeModeProtocol.js';

declare module '@chatwire/core' {
  interface ToolCallExtensions {
    /** What Code Mode ran for this `execute_typescript` call (with `codeModeEvents` in the client's `customEvents`). */
    readonly codeMode?: CodeExecution;
  }
}

/**
 * Turns Code Mode on in a client: list it in `customEvents` (of `ChatClient`, `useChat` or
 * `ChatProvider`), and each `execute_typescript` call's part gets what its code did as it runs
 * (`codeExecutionOf(part)`: the code, its console, each nested call). Plain data: its reducer loads
 * while the chat's first run is under way, so the initial load carries only these few bytes. Without it,
 * Code Mode's events change nothing (the call's input and result still show the code and what it
 * returned).
 *
 * @example
 * ```tsx
 * import { codeModeEvents } from '@chatwire/code-mode/client';
 * <ChatProvider api="/api/chat" customEvents={[codeModeEvents]}>…</ChatProvider>
 * ```
 */
export const codeModeEvents: CustomEventExtension = {
  name: 'codeMode',
  prefix: CODE_MODE_EVENT_PREFIX,
  load: () => import('./reduceCodeModeEvent.js').then((module) => module.reduceCodeModeEvent),
};

/** What Code Mode ran for this call, as its events told the client; `undefined` for other calls, and in chats rebuilt from saved messages. */
export const codeExecutionOf = (part: ToolCallPart): CodeExecution | undefined => part.extensions?.codeMode;
