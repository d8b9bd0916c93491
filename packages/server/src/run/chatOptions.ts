import type { Context, Message, ResumeEntry, Tool as WireTool } from '@ag-ui/core';
import type { AnyTool, McpAppCallRequest } from '@chatwire/core';
import type { ApprovalPolicy } from '../approvals/approvalPolicy.js';
import type { GrantOptions } from '../approvals/grants.js';
import type { DiscoveryOptions } from '../discovery/discoveryOptions.js';
import type { ErrorReporter } from '../errors/errorReport.js';
import type { ChatModel } from '../model/chatModel.js';
import type { ServerStore } from '../store/serverStore.js';
import type { TelemetryOptions } from './telemetryOptions.js';
import type { RunRecordSink } from './runRecords.js';
import { createMemoryStore } from '../store/memoryStore.js';

/** Options of `chat()`: one AG-UI run. */
export interface ChatOptions {
  /** The model to call: `createScriptedModel()`, `openaiCompatible(...)`, `anthropic(...)`. */
  readonly model: ChatModel;
  /** The conversation so far, as AG-UI messages (a run input's `messages`). */
  readonly messages: readonly Message[];
  /** Server tools (`.server(impl)`) and browser tools the server knows (bare or `.client` definitions). */
  readonly tools?: readonly AnyTool[];
  /** Tools the browser announced in the run input (`RunAgentInput.tools`); they run in the browser. */
  readonly frontendTools?: readonly WireTool[];
  /**
   * MCP Apps: tools only the apps of their own MCP server may call (`visibility: ["app"]`, from
   * `mcp.appTools()`). Never sent to the model, listed by discovery, or callable by the model.
   * Defaults to none.
   */
  readonly appTools?: readonly AnyTool[];
  /**
   * MCP Apps: the call an app shown in the chat asks for (the run input's
   * `forwardedProps.chatwire.appCall`). The run makes it, with the approvals, grants and lazy rules of
   * the model's calls, and ends without calling the model. Defaults to none.
   */
  readonly appCall?: McpAppCallRequest;
  /**
   * The run input's AG-UI context entries (the page's, and what MCP Apps asked to keep in the model's
   * context): the model reads them after the system prompt. Defaults to none.
   */
  readonly context?: readonly Context[];
  /** The system prompt. Defaults to none. */
  readonly system?: string;
  /** Model calls allowed in one run; a run that reaches it ends with the `cancelled` outcome. Defaults to 10. */
  readonly maxIterations?: number;
  /** AG-UI thread id. Defaults to a random id. */
  readonly threadId?: string;
  /** AG-UI run id. Defaults to a random id. */
  readonly runId?: string;
  /** The run input's `parentRunId`, repeated on `RUN_STARTED`. Defaults to none. */
  readonly parentRunId?: string;
  /** Answers to the interrupts (approvals) that ended the previous run. */
  readonly resume?: readonly ResumeEntry[];
  /** Abort to stop the model and the tools (the SSE helper wires this to the client's disconnect). */
  readonly signal?: AbortSignal;
  /**
   * Key that binds approvals and results to this server. Defaults to `CHATWIRE_SECRET`; without
   * either, production refuses to start and development uses a random per-process key (with a warning).
   */
  readonly secret?: string;
  /**
   * Where used approvals are remembered against replay. Defaults to one in-memory store per process,
   * which refuses approvals issued before a restart or by another instance; use `createRedisStore`
   * to share it between instances and restarts.
   */
  readonly store?: ServerStore;
  /** How long an approval can be answered, in milliseconds. Defaults to 3,600,000 (one hour). */
  readonly approvalTtlMs?: number;
  /**
   * How long a server tool's input request (`context.requestInput`) waits for the user's answer, in
   * milliseconds, unless the request names its own `timeoutMs`. Then it resolves as `cancel` and the
   * call ends with an error. Defaults to 300,000 (5 minutes).
   */
  readonly inputRequestTimeoutMs?: number;
  /**
   * Receives the details of failures the client only sees as a safe message (tool exceptions,
   * provider errors); credentials are redacted (`redactSecrets`). Defaults to one `console.error` line.
   */
  readonly onError?: ErrorReporter;
  /** Lazy discovery of tools marked `lazy` (by name by default; see `DiscoveryOptions`). */
  readonly discovery?: DiscoveryOptions;
  /**
   * Decides every server call before anyone is asked: approve, deny (with the reason the model
   * reads) or ask (with the prompt the user sees); `undefined` leaves it to the tool's
   * `needsApproval`. Runs after the tool's own policy (`toolApprovalPolicies`) had no opinion.
   * A throw or a timeout (`approvalPolicyTimeoutMs`) asks. Defaults to none.
   */
  readonly approvalPolicy?: ApprovalPolicy;
  /** Per-tool approval policies, by tool name, consulted before `approvalPolicy`. Defaults to none. */
  readonly toolApprovalPolicies?: Readonly<Record<string, ApprovalPolicy>>;
  /** How long an approval policy may take before the call asks the user instead. Defaults to 5,000 ms. */
  readonly approvalPolicyTimeoutMs?: number;
  /**
   * Grants: the user's standing answers ("allow for this chat", "always allow this tool"), kept in
   * `grants.store`, else (`createChatHandler` with `threads`) the thread store's, else `store.grants`;
   * they expire (30 days unless `alwaysTtlMs` / `threadTtlMs` say otherwise). `false` turns them off
   * (every approval is for one call). Defaults to on.
   */
  readonly grants?: false | GrantOptions;
  /**
   * The user this run is for, as the app names them (`createChatHandler`'s `userOf`): "always allow"
   * grants are bound to it. Without one, only "allow for this chat" is offered. Defaults to none.
   */
  readonly user?: string;
  /** The HTTP request of this run, handed to approval policies. `createChatHandler` sets it. */
  readonly request?: Request;
  /**
   * OpenTelemetry spans and metrics in the GenAI conventions, sent to the SDK the app registered
   * (none registered: nothing is observed). Inputs and outputs are recorded only when turned on
   * here. See docs/observability.md. Defaults to on, without inputs and outputs.
   */
  readonly telemetry?: TelemetryOptions;
  /**
   * Receives each run's record when it ends (its request, events and accounting: the file devtools
   * opens), e.g. `writeRunRecords('./run-records')`. Records hold the conversation: keep them private.
   * Defaults to none (nothing is recorded).
   */
  readonly runRecords?: RunRecordSink;
  /**
   * Sends each model call's request before the call, as the model adapter serialises it (the system
   * prompt, the tool definitions, the messages), each text with the tokens it holds, in a
   * `chatwire.model_request` CUSTOM event: devtools' Requests view shows it, with a token budget and
   * a diff against the previous call. Secrets are redacted (`redactSecrets`), attachments are their
   * descriptions, long texts are shortened; still, it shows the system prompt and every tool's
   * definition to the browser: turn it on in development only. Defaults to `false` (nothing is sent
   * or computed for it).
   */
  readonly inspectRequests?: boolean;
}

/** The default of {@link ChatOptions.approvalTtlMs}: one hour. */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60_000;

export { DEFAULT_INPUT_TIMEOUT_MS } from '../input/pendingInputs.js';

/** The default of {@link ChatOptions.maxIterations}. */
export const DEFAULT_MAX_ITERATIONS = 10;

let defaultStore: ServerStore | undefined;

/** The store of a run: the configured one, else the process's in-memory store. */
export const storeOf = (options: Pick<ChatOptions, 'store'>): ServerStore => options.store ?? (defaultStore ??= createMemoryStore());
