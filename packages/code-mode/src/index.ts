export { createCodeMode } from './createCodeMode.js';
export type { CodeMode, CodeModeOptions, DiscoverToolsInput, ExecuteOptions, ExecuteTypescriptInput } from './createCodeMode.js';
export { CodeModeError } from './errors.js';
export type { CodeModeErrorCode, ExecutionError, ExecutionErrorCode } from './errors.js';
export { CODE_MODE_EVENTS, toWireEvent } from './events.js';
export type {
  CodeModeEvent,
  CodeModeEventListener,
  ConsoleEvent,
  ExecutionFinishedEvent,
  ExecutionStartedEvent,
  ExternalCallEvent,
  ExternalErrorEvent,
  ExternalResultEvent,
  WireCodeModeEvent,
} from './events.js';
export { DEFAULT_CODE_MODE_LIMITS, DEFAULT_LIMITS, MAX_STACK_BYTES, resolveLimits } from './limits.js';
export type { CodeModeLimits, ResolvedLimits } from './limits.js';
export { DISCOVER_TOOLS, EXECUTE_TYPESCRIPT, renderSystemPrompt } from './prompt/renderSystemPrompt.js';
export type { PromptParts } from './prompt/renderSystemPrompt.js';
export { answerDiscovery, MAX_NAMES_PER_CALL } from './discovery/answerDiscovery.js';
export type { DiscoverToolsOutput, DiscoveryCatalog } from './discovery/answerDiscovery.js';
export { discoveredInConversation, requestedToolNames } from './discovery/discoveredInConversation.js';
export type { DiscoveredOptions } from './discovery/discoveredInConversation.js';
export { cutToBytes } from './execution/runExecution.js';
export type { BoundTool, ExecuteTypescriptResult } from './execution/runExecution.js';
export { stripTypeScript, TypeScriptError } from './execution/stripTypeScript.js';
export type { TranspileHook } from './execution/stripTypeScript.js';
export { createQuickJsDriver } from './sandbox/quickjsDriver.js';
export type { CompiledWasm, QuickJsDriver, QuickJsDriverOptions, QuickJsDriverStats } from './sandbox/quickjsDriver.js';
export type { ConsoleLevel, SandboxDriver, SandboxOutcome, SandboxRequest, ToolReply } from './sandbox/sandboxDriver.js';
export { GUEST_PRELUDE, wrapGuestCode } from './sandbox/guestPrelude.js';
export { RESERVED_WORDS, isIdentifier } from './stubs/identifiers.js';
export { SchemaRenderer, TypeNames } from './stubs/jsonSchemaToTypeScript.js';
export { BINDING_PREFIX, assertToolName, bareToolName, bindingName, createToolStubs, outputJsonSchema } from './stubs/toolStubs.js';
export type { StubSource, ToolStub } from './stubs/toolStubs.js';
export { codeModeTokens } from './accounting/codeModeTokens.js';
export { codeModeUsage } from './accounting/codeModeUsage.js';
export type { CodeModeTokens } from './accounting/codeModeTokens.js';
