/**
 * @chatwire/ui: React components for Chatwire chats. Unstyled markup with roles, focus and keyboard
 * handling and `cw-*` class names; `@chatwire/ui/styles.css` is the styled default (themeable with
 * `--cw-*` CSS variables). Hooks and primitives for your own markup; a registry renders a tool's
 * calls by its name, with a generic card for the rest.
 */
export { MessageList } from './components/MessageList.js';
export type { MessageListProps } from './components/MessageList.js';
export { ToolPart } from './components/ToolPart.js';
export type { DiscoveryDisplay, ToolPartProps } from './components/ToolPart.js';
export { ToolCallCard } from './components/ToolCallCard.js';
export type { ToolCallCardProps } from './components/ToolCallCard.js';
export { DiscoveryStep } from './components/DiscoveryStep.js';
export { CodeExecutionCard } from './components/CodeExecutionCard.js';
export { MessageText, preloadMarkdown } from './components/MessageText.js';
export { Attachments } from './components/Attachments.js';
export { Composer } from './components/Composer.js';
export type { ComposerProps } from './components/Composer.js';
export { ChatError } from './components/ChatError.js';
export { BranchPicker } from './components/BranchPicker.js';
export type { BranchPickerProps } from './components/BranchPicker.js';
export { RawJson, ToolInputFields, ToolOutputFields, summarizeValue } from './components/Fields.js';
export { LinkRequest } from './mcp/LinkRequest.js';
export type { LinkRequestProps } from './mcp/LinkRequest.js';
export { ApprovalPrompt } from './primitives/ApprovalPrompt.js';
export type { ApprovalPromptProps } from './primitives/ApprovalPrompt.js';
export { useComposer } from './primitives/useComposer.js';
export type { ComposerState, UseComposerOptions } from './primitives/useComposer.js';
export { createToolUIRegistry, makeToolUI } from './registry/toolUI.js';
export type { McpAppsChat, McpAppsOptions, McpAppTraffic } from './mcpApps/mcpAppsOptions.js';
export type { ToolUI, ToolUIOptions, ToolUIProps, ToolUIRegistry } from './registry/toolUI.js';
export {
  CODE_MODE_DISCOVERY_TOOL_NAME,
  CODE_MODE_EXECUTION_TOOL_NAME,
  DISCOVERY_WORDS,
  discoveryStatus,
  fieldLabel,
  formatSize,
  isDiscoveryCall,
  nestedCallLabel,
  progressLabel,
  requestedToolNames,
  toolCallStatus,
  toolProgressByCall,
} from './vocabulary.js';
export type { DiscoveryStatus, ToolCallOutcome, ToolCallStatus } from './vocabulary.js';
