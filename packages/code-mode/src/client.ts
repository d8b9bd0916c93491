/**
 * `@chatwire/code-mode/client`: Code Mode in the browser. `codeModeEvents` turns it on in a client
 * (`customEvents`); `codeExecutionOf(part)` reads what an `execute_typescript` call's code did;
 * `readCodeModeUsage(call)` reads Code Mode's share of a model call's accounting; `codeModeDevtoolsView`
 * is its tab in the devtools panel (`<ChatwireDevtools views={[codeModeDevtoolsView]} />`); the event
 * names and value types both sides share. Nothing here loads the sandbox, the transpiler or the server.
 *
 * @example
 * ```tsx
 * import { codeModeEvents, codeExecutionOf } from '@chatwire/code-mode/client';
 * const chat = useChat({ api: '/api/chat', customEvents: [codeModeEvents] });
 * ```
 */
export { codeExecutionOf, codeModeEvents } from './client/codeModeEvents.js';
export { codeModeDevtoolsView } from './client/codeModeDevtoolsView.js';
export { readCodeModeUsage } from './client/readCodeModeUsage.js';
export type { CodeExecution, CodeExecutionLog, NestedToolCall } from './client/codeExecution.js';
export { CODE_MODE_EVENT_PREFIX, CODE_MODE_EVENTS } from './client/codeModeProtocol.js';
export type {
  CodeModeConsoleLevel,
  CodeModeEventBase,
  CodeModeEventType,
  CodeModeEventValues,
  CodeModeExecutionError,
  CodeModeUsage,
} from './client/codeModeProtocol.js';
