import type {
  ActiveRun,
  AnyTool,
  ApprovalResponseInput,
  ChatClient,
  ChatMessage,
  ChatStatus,
  ChatwireError,
  DataPart,
  DataPartSchemas,
  DataPartsOf,
  InputAnswerInput,
  InputRequestView,
  InterruptPart,
  QueuedMessage,
  ToolCallPart,
  ToolCallPartOf,
  ToolResultInput,
  TurnRecord,
} from '@chatwire/core';
import type { ToolCatalog } from './useToolCatalog.js';
import type { GrantsState } from './useGrants.js';

/** Lazy tools, discovered and not yet. */
export interface DiscoveryView {
  /** Discovered tools, in discovery order (derived from the conversation). */
  readonly discovered: readonly string[];
  /** Lazy tools not discovered yet (from the catalog, or from the browser's own lazy tools). */
  readonly undiscovered: readonly string[];
  /** The catalog, once loaded (when `catalog` is set). */
  readonly catalog: ToolCatalog | undefined;
  readonly isLoading: boolean;
  readonly error: Error | null;
}

/** The data parts `dataParts` declares, typed by their schemas (any data part when none are declared). */
type DataPartsIn<DataParts extends DataPartSchemas> = string extends keyof DataParts
  ? DataPart
  : keyof DataParts extends never
    ? DataPart
    : DataPartsOf<DataParts>;

/** What `useChat` returns. */
export interface UseChatResult<Tools extends readonly AnyTool[] = readonly AnyTool[], DataParts extends DataPartSchemas = DataPartSchemas> {
  readonly id: string;
  readonly messages: readonly ChatMessage<ToolCallPartOf<Tools> | ToolCallPart, DataPartsIn<DataParts>>[];
  readonly status: ChatStatus;
  readonly error: ChatwireError | undefined;
  /** Token accounting per turn (see `TurnRecord`). */
  readonly turns: readonly TurnRecord[];
  /**
   * Tool calls waiting for the user's approval. A server's approval says what it offers besides yes
   * or no: `approval.grantOptions` (`once`, `thread`, `always`) and `approval.editable` (edited arguments).
   */
  readonly pendingApprovals: readonly ToolCallPart[];
  /** Answers every pending approval at once (approve all, deny all); they go out in one request. */
  readonly answerAllApprovals: (approved: boolean, reason?: string) => void;
  /** The chat's and the user's grants, with `revoke` (needs the `grants` option). */
  readonly grants: GrantsState;
  /** Interrupts of any other reason waiting for the app's answer (`respondToInterrupt` / `cancelInterrupt`). */
  readonly pendingInterrupts: readonly InterruptPart[];
  /**
   * Server tools' requests for the user's input (MCP elicitation among them) waiting for an answer:
   * each with its message, the JSON Schema of the form, and the call that asked. Answer with
   * `answerInputRequest`. They are also among `pendingInterrupts` (reason `input_request`).
   */
  readonly pendingInputRequests: readonly InputRequestView[];
  /** The agent's shared state (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`); sent back with the next run. */
  readonly agentState: unknown;
  /** Messages waiting in the send queue (`queue: true`), in the order they will be sent. */
  readonly queued: readonly QueuedMessage[];
  /** Resumable streams: the run in flight and the last event applied; save it with the messages to resume after a reload. */
  readonly activeRun: ActiveRun | undefined;
  /** Resumable streams: the chat's resume token; save it with the messages. */
  readonly resumeToken: string | undefined;
  readonly discovery: DiscoveryView;
  /** A saved conversation is loading (`initialMessages` loader). */
  readonly isLoadingMessages: boolean;
  readonly loadError: Error | null;
  /**
   * Sends a message; never rejects (resolves `{ sent: false, error }` while busy, for an empty
   * message or refused files). `sendMessage({ text, files })` attaches files;
   * `sendMessage({ text, messageId })` edits that user message and runs again from it;
   * `sendMessage(message, { body, headers, context })` adds to this turn's requests only.
   */
  readonly sendMessage: ChatClient['sendMessage'];
  readonly regenerate: ChatClient['regenerate'];
  /** Reads the rest of the chat's run in flight (resumable streams); see `ChatClient.resumeStream`. */
  readonly resumeStream: () => Promise<void>;
  /** Takes a message out of the send queue (`false` when it was sent already). */
  readonly cancelQueued: ChatClient['cancelQueued'];
  /** Cancels every queued message. */
  readonly clearQueue: () => void;
  /** Dismisses the current error (`status` turns `ready`). */
  readonly clearError: () => void;
  /** Answers a pending interrupt with the payload its `responseSchema` describes. */
  readonly respondToInterrupt: ChatClient['respondToInterrupt'];
  /** Declines a pending interrupt. */
  readonly cancelInterrupt: ChatClient['cancelInterrupt'];
  /**
   * Answers an input request: `{ id, action: 'accept', content }`, `'decline'` or `'cancel'`. Rejects
   * (recording nothing) when the content does not match the request's schema.
   */
  readonly answerInputRequest: (answer: InputAnswerInput) => Promise<void>;
  /** Replaces the shared state (a value, or a function of the current one). */
  readonly setAgentState: ChatClient['setAgentState'];
  readonly stop: () => void;
  readonly setMessages: ChatClient['setMessages'];
  readonly addToolResult: (result: ToolResultInput) => void;
  readonly addToolApprovalResponse: (response: ApprovalResponseInput) => void;
  /** The underlying client, for advanced use (inspection, devtools). */
  readonly client: ChatClient;
}
