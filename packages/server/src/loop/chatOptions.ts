import type { Message, ResumeEntry, Tool as WireTool } from '@ag-ui/core';
import type { AnyTool } from '@chatwire/core';
import type { DiscoveryOptions } from '../discovery/discoveryOptions.js';
import type { ErrorReporter } from '../errors/errorReport.js';
import type { ChatModel } from '../model.js';
import type { ServerStore } from '../store/serverStore.js';
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
   * provider errors); credentials in URLs are redacted. Defaults to one `console.error` line.
   */
  readonly onError?: ErrorReporter;
  /** Lazy discovery of tools marked `lazy` (by name by default; see `DiscoveryOptions`). */
  readonly discovery?: DiscoveryOptions;
}

/** The default of {@link ChatOptions.approvalTtlMs}: one hour. */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60_000;

export { DEFAULT_INPUT_TIMEOUT_MS } from '../input/pendingInputs.js';

/** The default of {@link ChatOptions.maxIterations}. */
export const DEFAULT_MAX_ITERATIONS = 10;

let defaultStore: ServerStore | undefined;

/** The store of a run: the configured one, else the process's in-memory store. */
export const storeOf = (options: Pick<ChatOptions, 'store'>): ServerStore => options.store ?? (defaultStore ??= createMemoryStore());
