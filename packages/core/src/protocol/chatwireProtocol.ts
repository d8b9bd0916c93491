/**
 * Chatwire's additions to AG-UI, in one place: CUSTOM event names, interrupt reasons, and the
 * metadata Chatwire puts on tool results and interrupts. docs/protocol.md documents each with JSON.
 */

/**
 * Names of Chatwire's own CUSTOM events: only the agent loop emits them (a tool's `emit` cannot).
 * Server packages emit theirs under a namespace of their own (`extendTools` in `@chatwire/server`),
 * which a client reads through an extension (`customEvents`).
 */
export const CHATWIRE_EVENTS = {
  /** A server tool started executing: `{ toolCallId }`. */
  toolExecuting: 'chatwire.tool_executing',
  /** Token accounting for one model call (see `ModelCallUsage`). */
  modelCallUsage: 'chatwire.model_call_usage',
} as const;

/**
 * The `CUSTOM` event a running tool streams its progress with (MCP progress notifications, from
 * `@chatwire/mcp`): a data part envelope `{ id: toolCallId, data: ToolProgress }`. The client keeps
 * it as a `data` part of this name (one per call, replaced in place) without the app declaring it,
 * and `@chatwire/ui`'s tool-call card shows it while the call runs.
 */
export const TOOL_PROGRESS_EVENT = 'chatwire.mcp.tool_progress';

/**
 * The `CUSTOM` event that brings an MCP server's app for a tool call (from `@chatwire/mcp`): a data
 * part envelope `{ id: toolCallId, data: McpAppView }` (see mcpApps.ts), sent as soon as the model starts a call of a
 * tool whose server declared an app (`_meta.ui.resourceUri`), before its arguments stream. Every
 * `ChatClient` keeps it as a `data` part of this name, one per call, without the app declaring it.
 */
export const MCP_APP_EVENT = 'chatwire.mcp.app';

/** The prefix of the ids of calls an app made (`appcall_3f9c2a7b1e0d4c58`): the model is never sent them. */
export const APP_CALL_ID_PREFIX = 'appcall';

/** Whether a tool call id is one of an app's calls (see {@link APP_CALL_ID_PREFIX}). */
export function isAppCallId(toolCallId: string): boolean {
  return toolCallId.startsWith(`${APP_CALL_ID_PREFIX}_`);
}

/** The `data` of a {@link TOOL_PROGRESS_EVENT} part: how far a running tool call is. */
export interface ToolProgress {
  readonly toolCallId: string;
  /** The tool source that reported it (an MCP server's name). */
  readonly server?: string;
  /** Increases with each report; a fraction of `total` when that is given. */
  readonly progress: number;
  readonly total?: number;
  /** What the tool is doing, as its source wrote it (plain text, at most 500 characters). */
  readonly message?: string;
}

/**
 * The CUSTOM event that says who decided whether a server call runs (see {@link ApprovalDecision}):
 * a policy, a grant, or the user. Apart from {@link CHATWIRE_EVENTS} so the client's first load
 * does not carry it (only its lazily loaded stream reader reads it).
 */
export const APPROVAL_DECISION_EVENT = 'chatwire.approval_decision';

/**
 * The CUSTOM event a server with a thread store sends just before `RUN_FINISHED`, once the run's
 * messages are stored: `{ threadId, messageId }` (see {@link ThreadStored}). Only a hint: the client
 * then sends, from its next request on, the messages from that one on instead of the whole chat
 * (`ChatClientOptions.history`); the server reads the stored branch either way. Apart from
 * {@link CHATWIRE_EVENTS} so the client's first load does not carry it.
 */
export const THREAD_STORED_EVENT = 'chatwire.thread.stored';

/** The value of a {@link THREAD_STORED_EVENT}: the thread, and the last message of the run's branch now stored (the leaf). */
export interface ThreadStored {
  readonly threadId: string;
  readonly messageId: string;
}

/**
 * Resumable streams: the header that carries a chat's resume token, in both directions (the server
 * hands it out with a run, also as `RUN_STARTED`'s `metadata.chatwire.resume.token`; the client
 * sends it back with the chat's next requests, and to read (`GET`) or stop (`DELETE`) its runs).
 */
export const RESUME_TOKEN_HEADER = 'chatwire-resume-token';

/**
 * `Interrupt.reason` values Chatwire emits. A tool call waiting for the user's approval uses AG-UI's own
 * reason, `tool_call` (the interrupt id is the approval id). Browser tools are no interrupt: a run that
 * stops on them finishes as success, naming them in `pendingToolCallIds`.
 */
export const INTERRUPT_REASONS = {
  toolApproval: 'tool_call',
  /**
   * A running server tool asked the user for input (`context.requestInput`, MCP elicitation). The
   * interrupt's `responseSchema` describes the answer `{ action, content }`, its
   * `metadata.chatwire.inputRequest` holds the tool call, the tool's name and the requested schema.
   */
  inputRequest: 'input_request',
} as const;

/**
 * The BroadcastChannel on which `@chatwire/mcp`'s sign-in callback page tells the app's other pages
 * (same origin) that a sign-in finished: `{ type: 'signed-in', server }`, or
 * `{ type: 'sign-in-failed', code }`. A page waiting on a "Connect <server>" request answers it then.
 */
export const MCP_SIGN_IN_CHANNEL = 'chatwire.mcp';

/** What an `input_request` interrupt carries in `metadata.chatwire.inputRequest`. */
export interface InputRequestMetadata {
  /** The call that asked (it keeps running on the server, waiting). */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The JSON Schema the tool asked with: the form to fill. */
  readonly schema: { readonly [key: string]: unknown };
  /** URL mode: the link the user is asked to open (after a click), instead of a form. */
  readonly url?: string;
  /** With `url`: what the link signs the user in to (an MCP server's name). */
  readonly connect?: string;
}

/** How a tool result ended, as carried in `metadata.chatwire` of TOOL_CALL_RESULT and tool messages. */
export interface ResultMetadata {
  /** Absent means success. */
  readonly outcome?: 'error' | 'cancelled';
  /** The error message (outcome `error`). */
  readonly error?: string;
  /** Why it was cancelled (outcome `cancelled`), e.g. `denied`. */
  readonly reason?: string;
  /** The server's signature over a server tool's result. */
  readonly signature?: string;
  /**
   * Call-to-load: the lazy tools this result made available from the next model call on, because the
   * call itself named a tool it had not discovered (it ran, or its error carries the tool's schema).
   */
  readonly discoveredTools?: readonly string[];
  /**
   * The call did not run because its lazy tool was not discovered yet (a loading or self-correction
   * error): the call, its result and the model call after them are what discovery cost.
   */
  readonly undiscovered?: true;
  /**
   * The user approved the call with edited arguments (AG-UI `editedArgs`): their canonical JSON, what
   * the call ran with and what the model reads as the call's arguments. The signature covers them.
   */
  readonly editedArguments?: string;
}

/** What a resume entry answering a tool approval carries in `payload`. */
export interface ApprovalPayload {
  readonly approved: boolean;
  readonly reason?: string;
  /** AG-UI approve-with-edits: a full replacement of the call's arguments (never merged). */
  readonly editedArgs?: Readonly<Record<string, unknown>>;
  /**
   * Chatwire grants: remember this answer. `thread`: for this chat (an approval, or with
   * `approved: false` a denial the chat no longer asks about); `always`: for this tool, for the user
   * the server names. Absent (or `once`): this call only.
   */
  readonly grant?: GrantScope | 'once';
  /** With `grant`: only for these exact arguments. Defaults to any arguments. */
  readonly grantArguments?: boolean;
}

/** How far a grant reaches: this chat (`thread`), or every chat of the user (`always`). */
export type GrantScope = 'thread' | 'always';

/** The grant options a server offers with an approval (`Interrupt.metadata.chatwire.grantOptions`). */
export type GrantOption = 'once' | GrantScope;

/** A grant as the server lists it (`GET` on the grants endpoint, `chatwire.approval_decision`). */
export interface GrantView {
  readonly id: string;
  readonly toolName: string;
  /** `allow` runs covered calls without asking; `deny` declines them without asking. */
  readonly effect: 'allow' | 'deny';
  readonly scope: GrantScope;
  /** The canonical arguments the grant is limited to; absent: any arguments. */
  readonly arguments?: string;
  /** When it was given (ISO 8601). */
  readonly createdAt: string;
  /** When it ends (ISO 8601): after it the tool asks again. Absent from servers older than grant expiry. */
  readonly expiresAt?: string;
}

/** `chatwire.approval_decision`: who decided a server call, and how. */
export interface ApprovalDecision {
  readonly toolCallId: string;
  readonly toolName: string;
  /** `policy`: the server's approval policy; `grant`: a stored grant; `user`: the user's answer. */
  readonly by: 'policy' | 'grant' | 'user';
  readonly decision: 'approve' | 'deny' | 'ask';
  /** A denial's reason (what the model reads), or why a policy asked (a failure, a timeout). */
  readonly reason?: string;
  /** The grant that decided (`by: 'grant'`), or the one the user's answer created. */
  readonly grant?: GrantView;
  /** The user approved edited arguments (canonical JSON): what the call ran with. */
  readonly editedArguments?: string;
}

/**
 * The CUSTOM event a server sends before each model call when asked to (`chat({ inspectRequests: true })`,
 * for development): the request as the model adapter sends it, counted where each of its texts sits
 * (see {@link ModelRequestRecord}). Devtools' Requests view reads it from the recorded events. Apart
 * from {@link CHATWIRE_EVENTS} so the client's first load does not carry it.
 */
export const MODEL_REQUEST_EVENT = 'chatwire.model_request';

/** What a text of a request is: the system prompt, a tool's definition, a message, or the framing between them. */
export type RequestSegmentBlock = 'system' | 'tool' | 'message' | 'framing';

/** One text of a request as the model adapter serialises it, with the tokens it holds there. */
export interface RequestSegmentRecord {
  readonly block: RequestSegmentBlock;
  /** The text as shown: secrets redacted, attachments as their descriptions, long texts shortened (see `chars`). */
  readonly text: string;
  /** Tokens of the text where it sits in the request (the pre-tokens that start in it, o200k). */
  readonly tokens: number;
  /** The text's length before it was shortened; absent when `text` is all of it. */
  readonly chars?: number;
  /**
   * A digest of the whole text as sent, without the comma that separates it from the one before (FNV-1a,
   * 32 bits, hex): tells a change a shortened text hides, and the same text in another place.
   */
  readonly digest: string;
  /** A `tool` text: the tool's name. */
  readonly tool?: string;
  /** A `message` text: the conversation message it carries (the first, when the adapter joins several). */
  readonly message?: { readonly index: number; readonly id?: string; readonly role: string };
}

/**
 * The value of a {@link MODEL_REQUEST_EVENT}: one model call's request as the adapter serialises it,
 * text by text in the order sent, each counted where it sits; the texts' tokens add up to `tokens`.
 * The provider's own figures come with the call's `chatwire.model_call_usage` (same `runId` and `step`).
 */
export interface ModelRequestRecord {
  readonly runId: string;
  readonly step: number;
  /** The model adapter's provider and model. */
  readonly provider: string;
  readonly model: string;
  /** How the texts were serialised and counted, and the worst-case relative error against what the provider bills. */
  readonly counting: { readonly method: string; readonly errorBound: number };
  /**
   * `adapter`: the texts are the model adapter's own serialisation, the one the call's accounting
   * counts. `json`: the adapter describes none, so the record shows the request as JSON (the
   * accounting counted it its own way: the provider's usage is the figure to trust).
   */
  readonly serialisation: 'adapter' | 'json';
  readonly segments: readonly RequestSegmentRecord[];
  /** The request's input tokens as counted: the sum of the texts' tokens. */
  readonly tokens: number;
}

/** The name of the lazy-discovery tool (server-managed and client-managed catalogs). */
export const DISCOVERY_TOOL_NAME = '__lazy__tool__discovery__';

/**
 * Token accounting for one model call: the value of a `chatwire.model_call_usage` CUSTOM event.
 * Token figures count tool definitions on the serialisation the model adapter sends.
 */
export interface ModelCallUsage {
  /** Who counted: the server (per model call) or the client (per run, in client-managed discovery). Defaults to `server`. */
  readonly source?: 'server' | 'client';
  /** The run this call belongs to, and its 1-based position in the run. */
  readonly runId: string;
  readonly step: number;
  /** Tools sent with this call, in order (eager, the discovery tool, discovered ones). */
  readonly toolsSent: readonly string[];
  /** Lazy tools withheld from this call. */
  readonly toolsDeferred: readonly string[];
  /**
   * Tools sent for the first time since the previous model response: newly discovered in this run,
   * where `discovered` elsewhere means every tool discovered so far. Readers also accept the field's
   * former name, `toolsDiscovered` (deprecated; accepted until the next minor release).
   */
  readonly newlyDiscovered: readonly string[];
  readonly tokens: {
    /** Tool-definition tokens sent with this call (the discovery tool included). */
    readonly sent: number;
    /** Tool-definition tokens if every tool had been sent eagerly (no discovery tool). */
    readonly allEager: number;
    /** `allEager - sent`. */
    readonly saved: number;
    /** Tokens of the discovery tool's own definition (part of `sent`). */
    readonly discoveryTool: number;
    /** Tokens of the discovery calls and their results in this call's history. */
    readonly discoveryRoundTrips: number;
    /** `saved - discoveryRoundTrips`: what discovery saved on this call, all costs counted. */
    readonly net: number;
    /**
     * Input tokens of the whole request (tools, system prompt, messages): the provider's figure when it
     * reported one, else counted on the adapter's serialisation (`inputSource` says which).
     */
    readonly input?: number;
    /** Tokens of the system prompt as sent (part of `input`). */
    readonly system?: number;
  };
  /** Where `tokens.input` comes from: the provider's usage report, or the server's own count. */
  readonly inputSource?: 'provider' | 'counted';
  /**
   * True when this model call exists only because the previous model response was all discovery
   * (discovery calls, or calls of undiscovered lazy tools that did not run): all-eager would not have made it.
   */
  readonly discoveryStep?: boolean;
  readonly counting: {
    /** How tokens were counted, e.g. `o200k tokenizer on the tool JSON`. */
    readonly method: string;
    /** Worst-case relative error of the counts (0 = exact for that serialisation). */
    readonly errorBound: number;
    /** True when the figures are estimates rather than tokenizer counts. */
    readonly estimate: boolean;
  };
  /** True when this call would have been cheaper with every tool eager (`net < 0`). */
  readonly eagerWouldBeCheaper: boolean;
  /** Auto mode's decision, when auto mode is on. */
  readonly auto?: { readonly deferring: boolean; readonly lazyTokens: number; readonly threshold: number; readonly contextWindow: number };
  /**
   * Discovery searches answered since the previous model call (search mode, and prefetch): which
   * search answered each (the app's `search` hook or the built-in one, and why it fell back).
   */
  readonly discoverySearches?: readonly {
    readonly by: 'app' | 'built-in';
    readonly fallback?: 'timeout' | 'error' | 'invalid';
    readonly ms: number;
    readonly query: string;
    readonly matches: number;
  }[];
  /** What the provider reported for this call, when it did. */
  readonly providerUsage?: {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly totalTokens?: number;
    readonly cachedInputTokens?: number;
    /** Input tokens written to the provider's prompt cache (part of `inputTokens`). */
    readonly cacheWriteInputTokens?: number;
  };
  /**
   * Provider-native deferred loading, when the model adapter's own tool search replaced the discovery
   * tool. Then `toolsSent` lists every tool in the request (deferred ones included) and `tokens.sent`
   * counts what the provider bills: the tools not deferred, the search tool, and the definitions its
   * searches loaded; deferred definitions not loaded are sent but not counted.
   */
  readonly providerToolSearch?: {
    /** The provider's search tool, sent in place of the discovery tool (counted in `tokens.discoveryTool`). */
    readonly tool: string;
    /** Lazy tools sent marked deferred: the provider keeps them out of the prompt until its search loads them. */
    readonly deferredSent: readonly string[];
    /** Of those, the ones the provider's searches in this history loaded (counted in `tokens.sent`). */
    readonly loaded: readonly string[];
    /** How the provider bills deferred tools, as the adapter states it. */
    readonly billing: string;
  };
  /**
   * Cache-preserving tool changes (e.g. `anthropic({ toolChanges: true })`): every lazy tool is sent
   * deferred from the first call, so the tool list never changes, and each discovered tool is added
   * by a tool-change block in the history where its discovery sits. Then `toolsSent` lists every tool
   * in the request, `tokens.sent` counts the tools not deferred, and the added definitions count in
   * `tokens.discoveryRoundTrips` (they sit in the messages, after the cached prefix). Present on every
   * call that used them, which is how a report tells those calls apart.
   */
  readonly toolChanges?: {
    /** Lazy tools sent deferred (not in the prompt until added). */
    readonly deferredSent: readonly string[];
    /** Tools the history adds through tool-change blocks, in the order added. */
    readonly added: readonly string[];
    /** How the provider renders and bills added tools, as the adapter states it. */
    readonly billing: string;
  };
}

/** One tool of a server's catalog: what `GET /api/tools` answers for each tool. */
export interface ToolCatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly kind: 'server' | 'client';
  readonly lazy: boolean;
  readonly needsApproval: boolean | 'per-call';
  /** Tokens of its definition, as the server counts them. */
  readonly tokens: number;
  /** The group it is listed under (its MCP server's name), when it has one. */
  readonly group?: string;
  /**
   * A lazy tool's input JSON Schema, as the model receives it: served when the catalog describes the
   * discovery search (`createToolsHandler(tools, { discovery })`), whose index reads its parameters.
   */
  readonly parameters?: unknown;
}

/**
 * How the chat's discovery search is set up, as a catalog serves it when the app passes its
 * `discovery` options: devtools' search playground runs the same search with the same cut.
 */
export interface ToolCatalogSearch {
  /** Whether the discovery tool searches (search mode, or more lazy tools than `groupAbove`), or takes names. */
  readonly searches: boolean;
  readonly mode: 'name' | 'search';
  /** Most matches a search returns. */
  readonly topK: number;
  /** Lowest score a match may have, relative to the best (0..1). */
  readonly minScore: number;
  /** Above this many lazy tools the catalog lists groups and the discovery tool searches. */
  readonly groupAbove: number;
  /** Group descriptions, indexed with each group's tools. */
  readonly groups?: Readonly<Record<string, { readonly description?: string }>>;
  /** The app's own `search` hook answers first: the built-in search answers only when it fails. */
  readonly appSearch: boolean;
}

/**
 * A tool source (an MCP server) as a catalog reports it when the app passes its status
 * (`createToolsHandler(tools, { servers })`), for devtools. Every string came from the server side
 * and is plain text (error text redacted); nothing in it is markup.
 */
export interface ToolServerStatus {
  readonly name: string;
  readonly transport: string;
  /** `idle`, `connecting`, `connected`, `reconnecting`, `failed`, `unauthorized` (the user must sign in) or `closed`. */
  readonly state: string;
  readonly lastError?: string;
  readonly description?: string;
  readonly trusted?: boolean;
  /** Tools exposed to the model. */
  readonly toolCount: number;
  /** Tokens of those tools' definitions, counted as the model adapter sends them. */
  readonly tokens: number;
  /** Whether its tools are deferred (lazy discovery), and why. */
  readonly lazy: boolean;
  readonly lazyReason?: string;
  /** Tools the server listed that cannot be used, with the reason. */
  readonly skipped?: readonly { readonly name: string; readonly reason: string }[];
  /** Exposed tool name -> short definition fingerprint (the version discovery records). */
  readonly versions?: Readonly<Record<string, string>>;
  /** What happened to it lately, oldest first (bounded): connection states, tool-list changes, drift. */
  readonly events?: readonly ToolServerEvent[];
  /** The protocol revision the connection speaks (`2025-11-25`, `2026-07-28`...), once connected. */
  readonly protocolVersion?: string;
  /**
   * For a server each user signs in to: the request's user's state (`connected`, `needs-sign-in`,
   * `expired`: the access token expired, a refresh is tried at the next use). Absent for servers
   * that use the app's own credentials.
   */
  readonly signIn?: 'connected' | 'needs-sign-in' | 'expired';
  /** Resources the server lists (the first 50: URI, name, MIME type). */
  readonly resources?: readonly { readonly uri: string; readonly name: string; readonly mimeType?: string }[];
  /** Prompts the server lists (the first 50: name and argument names). */
  readonly prompts?: readonly { readonly name: string; readonly arguments: readonly string[] }[];
}

/** One thing that happened to a tool source: its connection state changed, or its tool list did. */
export interface ToolServerEvent {
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly type: 'state' | 'tools';
  /** `state`: the new state. */
  readonly state?: string;
  readonly error?: string;
  /** `tools`: the tool count after the change. */
  readonly count?: number;
  /** `tools`: tools that appeared or went away (exposed names when known). */
  readonly added?: readonly string[];
  readonly removed?: readonly string[];
  /** `tools`: tools whose definition (description, schemas, annotations) changed: drift. */
  readonly changed?: readonly string[];
}

/** A server's tool catalog (`GET /api/tools`). */
export interface ToolCatalog {
  readonly tools: readonly ToolCatalogEntry[];
  /** The app's tool sources (MCP servers) and their state, when it passes them. */
  readonly servers?: readonly ToolServerStatus[];
  readonly counting?: { readonly method: string; readonly errorBound: number };
  /** The chat's discovery search, when the app passes its `discovery` options to the catalog. */
  readonly search?: ToolCatalogSearch;
}
