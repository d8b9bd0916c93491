import type { RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import { type AnyTool, type DiscoveryCatalogOptions } from '@chatwire/core';
import { type ToolCatalog, type ToolCatalogEntry, type ToolServerStatus } from '@chatwire/core/shared';
import { reviewChatRequest, runChat, type ChatOptions, type ReviewedRequest } from '../loop/chat.js';
import { reportError } from '../errors/errorReport.js';
import { ChatRequestError } from '../errors/chatRequestError.js';
import { withDefaultMount } from '../http/defaultMount.js';
import { checkOrigin, corsHeaders, preflightResponse, withCors, type OriginPolicyOptions } from '../http/originPolicy.js';
import { checkHost, type HostPolicyOptions } from '../http/hostPolicy.js';
import { checkRunInputIds } from '../http/checkIds.js';
import { IdFieldScan } from '../http/idFieldScan.js';
import { arrivalTurn, runStartTurn, wasAdmitted } from '../http/largeBodyTurns.js';
import { RunsPerOwner, releasing, type RunsPerOwnerOptions } from '../http/runsPerOwner.js';
import { isJsonContentType, jsonOfBytes, readJsonBody } from '../http/readJsonBody.js';
import { fetchArrival, withArrivalPath, type ChatAnswer, type ChatArrival } from '../http/chatArrival.js';
import { readRunInput } from '../http/readRunInput.js';
import { readAppCall } from '../http/readAppCall.js';
import { parseRunInputText, rememberCheckedMessages } from '../http/knownMessages.js';
import { CallSigner } from '../binding/signing.js';
import type { ToolTokenCounter } from '../model/chatModel.js';
import { countTextTokens, toolTokensFor } from '../model/tokens.js';
import { catalogSearch } from '../discovery/catalogSearch.js';
import { toServerSentEventsResponse } from '../http/sse.js';
import { checkAttachments } from '../attachments/checkAttachments.js';
import { ChatwireConfigError } from '../binding/secret.js';
import { grantLifetimesOf } from '../approvals/grants.js';
import { RESUMABLE_RESPONSE_HEADERS, ResumableStreams, type ResumableStreamOptions } from '../resumable/resumableStreams.js';
import { createMemoryRunStore } from '../store/memoryRunStore.js';
import type { RunStreamStore } from '../store/runStreamStore.js';
import { persistRun } from '../threads/persistRun.js';
import { NO_OWNER, type ThreadStore } from '../threads/threadStore.js';
import { commitTurn, placeTurn, type PlacedTurn } from '../threads/turnStart.js';
import { summarizeBranch } from '../history/branchSummary.js';

/** Limits on what one request may carry; each refusal names the limit. */
export interface RequestLimits {
  /** The request body's size in bytes, enforced while it streams (413). Defaults to 4 MiB (4,194,304). */
  readonly maxBodyBytes?: number;
  /** Messages in one run input (413). Defaults to 2,000. */
  readonly maxMessages?: number;
  /** Frontend tools in one run input (413). Defaults to 256. */
  readonly maxTools?: number;
  /** Media parts (image, audio, video, document) in one run input, earlier messages included (413). Defaults to 16. */
  readonly maxAttachments?: number;
  /** Decoded bytes of one inline attachment (a `data` source or `data:` URL) (413). Defaults to 3 MiB (3,145,728). */
  readonly maxAttachmentBytes?: number;
}

/** The default {@link RequestLimits}. */
export const DEFAULT_REQUEST_LIMITS: Required<RequestLimits> = Object.freeze({
  maxBodyBytes: 4 * 1024 * 1024,
  maxMessages: 2_000,
  maxTools: 256,
  maxAttachments: 16,
  maxAttachmentBytes: 3 * 1024 * 1024,
});

/**
 * @deprecated Renamed {@link DEFAULT_REQUEST_LIMITS} (each package's defaults are named after what
 * they limit; Code Mode's are `DEFAULT_CODE_MODE_LIMITS`). This alias is removed in the next minor version.
 * @alias
 */
export const DEFAULT_LIMITS = DEFAULT_REQUEST_LIMITS;

/**
 * Tool names the handler accepts from the browser: AG-UI leaves names open, so this is the rule of
 * the providers the names are sent to (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`).
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Options of {@link createChatHandler}: everything `chat()` takes except the per-request parts. */
export interface ChatHandlerOptions
  extends
    Omit<
      ChatOptions,
      | 'messages'
      | 'frontendTools'
      | 'threadId'
      | 'runId'
      | 'parentRunId'
      | 'resume'
      | 'signal'
      | 'tools'
      | 'user'
      | 'request'
      | 'appTools'
      | 'appCall'
      | 'context'
    >,
    OriginPolicyOptions,
    HostPolicyOptions {
  /**
   * Server tools and browser tools the server knows: a list, or a function called once per request
   * for the list that request uses (tools that come and go, such as an MCP server's). Defaults to none.
   */
  readonly tools?: readonly AnyTool[] | ToolsProvider;
  /**
   * MCP Apps: the tools only apps may call (`mcp.appTools()`), a list or a function called once per
   * request. Never sent to the model or listed by discovery; an app's call of one (the run input's
   * `forwardedProps.chatwire.appCall`) is decided like the model's calls. Defaults to none.
   */
  readonly appTools?: readonly AnyTool[] | ToolsProvider;
  /** Size and count limits of one request. Defaults to {@link DEFAULT_REQUEST_LIMITS}. */
  readonly limits?: RequestLimits;
  /**
   * Resumable streams: a run's events are buffered in `store.runs` and numbered (SSE `id:`), a
   * reader that disconnects only detaches (the run goes on), `GET <api>?threadId=&runId=` reads a
   * run again from `Last-Event-ID`, and `DELETE` with the same parameters stops it; both need the
   * resume token the run was started with. `true` uses the defaults ({@link ResumableStreamOptions}).
   * Defaults to `false`: a disconnect stops the run.
   */
  readonly resumable?: boolean | ResumableStreamOptions;
  /**
   * Caps the runs each owner (a user, a session, an IP: `ownerOf(request)` says) has in flight; past
   * it a `POST` gets 429 with `Retry-After`. Runs count until their events end, read or not.
   * Defaults to no cap ({@link RunsPerOwnerOptions} for the defaults once given).
   */
  readonly runsPerOwner?: RunsPerOwnerOptions;
  /**
   * Names the user of a request (from your session: a cookie, a verified token), for "always allow"
   * grants and approval policies. `undefined`: no user, so only "allow for this chat" is offered.
   * A throw fails the request with a 500. Defaults to none.
   */
  readonly userOf?: UserOf;
  /**
   * Where threads live (`createPgliteThreadStore`, `createPostgresThreadStore`, `createMemoryThreadStore`).
   * With it, every turn is stored with the server's message ids, a request's `threadId` names a
   * thread of `userOf(request)` (created on its first run), and the model reads the stored branch the
   * request continues, not the request's copy (see docs/threads.md). Serve the thread list with
   * `createThreadsHandler` on the same options. Defaults to none: the request's history is the chat.
   */
  readonly threads?: ThreadStore;
}

/** Names the user of a request (see {@link ChatHandlerOptions.userOf}). */
export type UserOf = (request: Request) => string | undefined | Promise<string | undefined>;

/** Gives the tools of one request (see {@link ChatHandlerOptions.tools}); a throw fails the request with a 500. */
export type ToolsProvider = (request: Request) => readonly AnyTool[] | Promise<readonly AnyTool[]>;

/** The tools of this request, from a list or a provider. */
const toolsFor = async (tools: readonly AnyTool[] | ToolsProvider | undefined, request: Request): Promise<readonly AnyTool[]> =>
  typeof tools === 'function' ? await tools(request) : (tools ?? []);

let defaultRuns: RunStreamStore | undefined;

/** A JSON error response. */
export function jsonError(status: number, error: string, code?: string): Response {
  return Response.json({ error, ...(code ? { code } : {}) }, { status });
}

/** Refuses a body with more messages or tools than the limits allow (413). */
function checkCounts(body: unknown, limits: Required<RequestLimits>): Response | undefined {
  const { messages, tools } = (body ?? {}) as { messages?: unknown; tools?: unknown };
  if (Array.isArray(messages) && messages.length > limits.maxMessages) {
    return jsonError(
      413,
      `The run input has ${messages.length} messages; this server accepts at most ${limits.maxMessages} (\`limits.maxMessages\`).`,
      'too-many-messages',
    );
  }
  if (Array.isArray(tools) && tools.length > limits.maxTools) {
    return jsonError(
      413,
      `The run input has ${tools.length} tools; this server accepts at most ${limits.maxTools} (\`limits.maxTools\`).`,
      'too-many-tools',
    );
  }
  return undefined;
}

/** Refuses tool names no provider accepts, and two tools with one name (400). */
function checkRunInput(input: RunAgentInput): Response | undefined {
  const tools = input.tools ?? [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      const shown = JSON.stringify(tool.name.length > 80 ? `${tool.name.slice(0, 80)}…` : tool.name);
      return jsonError(400, `Tool name ${shown} is not allowed: tool names are 1 to 64 letters, digits, '_' or '-'.`, 'invalid-tool-name');
    }
    if (seen.has(tool.name)) return jsonError(400, `Two tools in the run input are named '${tool.name}'.`, 'duplicate-tool');
    seen.add(tool.name);
  }
  return undefined;
}

/**
 * A Fetch handler for `POST` AG-UI runs. Before anything runs it refuses, with a JSON
 * `{ error, code }`: pages of other origins (403, see `allowedOrigins`), bodies that are not
 * `application/json` (415), bodies over the size limit (413, while streaming), inputs that are not
 * an AG-UI `RunAgentInput` or break the limits (400/413), and histories or approvals that do not
 * verify (400), and attachments over the limits (413/400). Then it runs `chat()` and streams the
 * events as SSE; the run stops when the client disconnects, unless `resumable` is on (then a
 * disconnect detaches, and `GET`/`DELETE` resume and stop runs). Creating it without a secret in
 * production throws ({@link ChatwireConfigError}).
 *
 * @example
 * ```ts
 * const handleChat = createChatHandler({ model: createScriptedModel(), tools: [getWeather] });
 * export const POST = handleChat; // any Fetch-style framework
 * ```
 */
export function createChatHandler(options: ChatHandlerOptions): (request: Request) => Promise<Response> {
  // The key is resolved at the first request, not here: importing or creating the handler (a build
  // tool's config does both) needs no secret. Without one, production answers every request with a
  // 500 `missing-secret` and logs why once; development warns once and uses a per-process key.
  const signer = new CallSigner(options.secret);
  let secretReported = false;
  // The tokenizer loads its tables on first use (about 150 ms): at startup, not in the first request.
  countTextTokens('warm up');
  const {
    allowedOrigins,
    trustProxy,
    allowedHosts,
    runsPerOwner: ownerOptions,
    limits: limitOptions,
    resumable: resumableOption,
    tools: toolsOption,
    appTools: appToolsOption,
    userOf,
    threads,
    ...runDefaults
  } = options;
  // A lifetime that is not one fails here, at startup, not in a run.
  grantLifetimesOf(options.grants);
  // With a thread store, grants live beside the threads (deleted with them) unless the app chose a store.
  const grantStore = threads?.grants && options.grants !== false && !options.grants?.store ? threads.grants : undefined;
  const chatDefaults = grantStore ? { ...runDefaults, grants: { ...(options.grants || {}), store: grantStore } } : runDefaults;
  const runsPerOwner = ownerOptions ? new RunsPerOwner(ownerOptions) : undefined;
  const policy: OriginPolicyOptions = { ...(allowedOrigins ? { allowedOrigins } : {}), ...(trustProxy ? { trustProxy } : {}) };
  const limits: Required<RequestLimits> = { ...DEFAULT_REQUEST_LIMITS, ...limitOptions };
  const resumable = resumableOption ? resumableStreamsFor(options, signer) : undefined;
  // Every check and the run's start, on an arrival: a Fetch Request (the handler below), or a node
  // request `toNodeListener` read itself (see `ChatArrival`), so both ways in share one implementation.
  const serve = async (arrival: ChatArrival): Promise<ChatAnswer> => {
    const foreignHost =
      allowedHosts === undefined ? undefined : checkHost(arrival.headers.get('host') ?? new URL(arrival.url).host, allowedHosts);
    if (foreignHost !== undefined) {
      await arrival.discardBody();
      return jsonError(403, foreignHost, 'forbidden-host');
    }
    try {
      signer.ready();
    } catch (error) {
      if (!(error instanceof ChatwireConfigError)) throw error;
      if (!secretReported) {
        secretReported = true;
        console.error(`[chatwire] ${error.message}`);
      }
      await arrival.discardBody();
      return jsonError(500, 'This server is not configured to serve chats: it has no CHATWIRE_SECRET (see its log).', error.code);
    }
    const origin = checkOrigin(arrival, policy);
    if (arrival.method === 'OPTIONS') return preflightResponse(arrival.request(), origin, resumable ? 'GET, POST, DELETE' : 'POST');
    const corsOrigin = origin.ok ? origin.corsOrigin : undefined;
    const cors = (response: Response) => {
      if (resumable && corsOrigin !== undefined)
        response.headers.set('access-control-expose-headers', RESUMABLE_RESPONSE_HEADERS.join(', '));
      return withCors(response, corsOrigin);
    };
    const fail = (status: number, error: string, code: string) => withCors(jsonError(status, error, code), corsOrigin);
    if (!origin.ok) return fail(403, origin.message, 'forbidden-origin');
    if (resumable && arrival.method === 'GET') return cors(await resumable.resume(arrival.request()));
    if (resumable && arrival.method === 'DELETE') return cors(await resumable.stop(arrival.request()));
    if (arrival.method !== 'POST') return fail(405, `Use POST to start a run (got ${arrival.method}).`, 'method-not-allowed');
    if (!isJsonContentType(arrival.headers.get('content-type'))) {
      await arrival.discardBody();
      return fail(
        415,
        `The request body must be JSON, sent with \`Content-Type: application/json\` (got ${JSON.stringify(arrival.headers.get('content-type') ?? 'none')}).`,
        'unsupported-media-type',
      );
    }
    // One request read and checked per event-loop turn: a burst that arrived together is spread over turns.
    // A request the node adapter admitted on its own turn (see `admitRequest`) is read, checked and started in that turn.
    const admitted = arrival.admitted;
    if (!admitted) await arrivalTurn();
    // An oversized id is refused as it arrives, before megabytes of it are decoded and parsed (a body
    // the adapter read whole is small: parsed whole, as `readJsonBody` parses a small body).
    const body = arrival.bytes
      ? jsonOfBytes(arrival.bytes, limits.maxBodyBytes, parseRunInputText)
      : await readJsonBody(arrival.request(), limits.maxBodyBytes, new IdFieldScan(), parseRunInputText);
    if (!body.ok) return fail(body.status, body.error, body.code);
    // Counts first: a 3,000-message body is refused before the schema walks every message.
    const counted = checkCounts(body.value, limits);
    if (counted) return withCors(counted, corsOrigin);
    const parsed = readRunInput(body.value);
    if (!parsed.ok) return fail(400, `The request body is not an AG-UI RunAgentInput: ${parsed.error}.`, 'invalid-run-input');
    const input = parsed.input;
    // Ids before anything stores or echoes them: short and printable, or a 400 naming the field.
    const badId = checkRunInputIds(input);
    if (badId) return fail(400, badId.error, 'invalid-id');
    const refused = checkRunInput(input);
    if (refused) return withCors(refused, corsOrigin);
    const appCall = readAppCall(input);
    if ('error' in appCall) return fail(400, appCall.error, 'invalid-app-call');
    const attachments = checkAttachments(input.messages, limits);
    if (attachments) return fail(attachments.status, attachments.error, attachments.code);
    // Each new message passed its checks: the next turn's request, which carries it again, takes it as
    // checked, and finds the branch it continues summarised (held by the cache of checked messages).
    for (const branch of rememberCheckedMessages(body.value, input.messages)) summarizeBranch(branch, { hold: false });
    let slot: (() => void) | Response;
    try {
      slot = runsPerOwner ? await runsPerOwner.acquire(arrival.request()) : () => {};
    } catch (error) {
      // The app's ownerOf failed (often on a token the client sent): reported, never shown, and the handler keeps serving.
      const ref = reportError(options.onError, { kind: 'run', error, threadId: input.threadId, runId: input.runId });
      return fail(500, `The request's owner could not be determined (ref ${ref}; details are in the server log).`, 'internal-error');
    }
    if (slot instanceof Response) return cors(slot);
    // One run start per event-loop turn (the slot held meanwhile, so the owner's cap counts this run):
    // a burst of requests never starts all its runs, with their reviews and first steps, in one turn.
    if (!admitted) await runStartTurn();
    const abort = new AbortController();
    // With resumable streams a disconnect only detaches the reader; the run stops on DELETE.
    if (!resumable) arrival.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    let tools: readonly AnyTool[];
    let appTools: readonly AnyTool[];
    let user: string | undefined;
    try {
      tools = typeof toolsOption === 'function' ? await toolsOption(arrival.request()) : (toolsOption ?? []);
      appTools = typeof appToolsOption === 'function' ? await appToolsOption(arrival.request()) : (appToolsOption ?? []);
      user = userOf ? await userOf(arrival.request()) : undefined;
    } catch (error) {
      slot();
      const ref = reportError(options.onError, { kind: 'run', error, threadId: input.threadId, runId: input.runId });
      return fail(500, `The server's tools or the request's user could not be read (ref ${ref}).`, 'internal-error');
    }
    // With a thread store, the thread decides the history: the stored branch the request continues.
    const owner = typeof user === 'string' && user !== '' ? user : NO_OWNER;
    let turn: PlacedTurn | undefined;
    if (threads) {
      try {
        const placed = await placeTurn(threads, owner, input.threadId, input.messages);
        if (!placed.ok) {
          slot();
          return fail(placed.status, placed.error, placed.code);
        }
        turn = placed;
      } catch (error) {
        slot();
        const ref = reportError(options.onError, { kind: 'run', error, threadId: input.threadId, runId: input.runId });
        return fail(503, `The thread store is unavailable; nothing was saved. Try again shortly (ref ${ref}).`, 'threads-unavailable');
      }
    }
    const opened = resumable ? await resumable.open(input, arrival.headers) : undefined;
    if (opened instanceof Response) {
      slot();
      return cors(opened);
    }
    const chatOptions: ChatOptions = {
      ...chatDefaults,
      tools,
      ...(appTools.length > 0 ? { appTools } : {}),
      ...(appCall.appCall ? { appCall: appCall.appCall } : {}),
      ...(input.context.length > 0 ? { context: input.context } : {}),
      messages: turn ? turn.messages : input.messages,
      frontendTools: (input.tools ?? []) as WireTool[],
      threadId: input.threadId,
      runId: input.runId,
      ...(input.parentRunId === undefined ? {} : { parentRunId: input.parentRunId }),
      ...(input.resume ? { resume: input.resume } : {}),
      signal: abort.signal,
      // Built only when something reads it (an approval policy, telemetry's trace context).
      get request() {
        return arrival.request();
      },
      ...(typeof user === 'string' && user !== '' ? { user } : {}),
    };
    let review: ReviewedRequest;
    try {
      review = await reviewChatRequest(chatOptions, true, signer);
    } catch (error) {
      if (opened) await resumable?.discard(opened);
      slot();
      if (error instanceof ChatRequestError) return fail(error.status, error.message, error.code);
      const ref = reportError(options.onError, { kind: 'run', error, threadId: input.threadId, runId: input.runId });
      return fail(500, `The request could not be checked (ref ${ref}).`, 'internal-error');
    }
    if (threads && turn) {
      let refusal: Awaited<ReturnType<typeof commitTurn>>;
      try {
        refusal = await commitTurn(threads, owner, input.threadId, turn);
      } catch (error) {
        if (opened) await resumable?.discard(opened);
        slot();
        const ref = reportError(options.onError, { kind: 'run', error, threadId: input.threadId, runId: input.runId });
        return fail(503, `The thread store is unavailable; nothing was saved. Try again shortly (ref ${ref}).`, 'threads-unavailable');
      }
      if (refusal) {
        if (opened) await resumable?.discard(opened);
        slot();
        return fail(refusal.status, refusal.error, refusal.code);
      }
    }
    const run = runChat(chatOptions, review, signer);
    // The run's messages are stored (under the request's last new message) before its last event goes out.
    const stored =
      threads && turn
        ? persistRun(run, {
            store: threads,
            owner,
            threadId: input.threadId,
            runId: input.runId,
            parentId: turn.runParentId,
            onError: options.onError,
          })
        : run;
    const events = releasing(stored, slot);
    if (resumable && opened) return cors(resumable.start(opened, events, abort, arrival.signal));
    return { events, abort, headers: corsHeaders(corsOrigin) };
  };
  const handle = async (request: Request): Promise<Response> => {
    const answer = await serve(fetchArrival(request, wasAdmitted(request)));
    return answer instanceof Response ? answer : toServerSentEventsResponse(answer.events, answer);
  };
  // Resumable streams read the request's own signal (a disconnect detaches): those go through Fetch.
  return withDefaultMount(withArrivalPath(handle, serve), '/api/chat');
}

/** The resumable streams of a handler: on its store's `runs`, or the process's in-memory buffers when no store is given. */
function resumableStreamsFor(options: ChatHandlerOptions, signer: CallSigner): ResumableStreams {
  const runs = options.store ? options.store.runs : (defaultRuns ??= createMemoryRunStore());
  if (!runs) {
    throw new ChatwireConfigError(
      'store-cannot-resume',
      'Resumable streams need a store with `runs`: createMemoryStore(), or createRedisStore({ client, subscriber }) with a subscriber connection (node-redis: client.duplicate()).',
    );
  }
  return new ResumableStreams(runs, signer, options.resumable === true ? {} : options.resumable || {}, options.onError);
}

/** One entry of the tool catalog served by {@link createToolsHandler}. */
export type CatalogEntry = ToolCatalogEntry;

/** The tool catalog: each tool's name, description, kind, lazy and approval flags, and token count. */
export function describeTools(tools: readonly AnyTool[], counter?: ToolTokenCounter): CatalogEntry[] {
  const count = toolTokensFor(counter);
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    kind: tool.kind === 'server' ? 'server' : 'client',
    lazy: tool.lazy,
    needsApproval: typeof tool.needsApproval === 'function' ? 'per-call' : tool.needsApproval,
    tokens: count.countTool({ name: tool.name, description: tool.description, parameters: tool.parameters }),
    ...(tool.group === undefined ? {} : { group: tool.group }),
  }));
}

/** Options of {@link createToolsHandler}. */
export interface ToolsHandlerOptions {
  /** Counts each tool's definition tokens, as the model adapter does (`model.toolTokens`). Defaults to the o200k tokenizer on the JSON. */
  readonly counter?: ToolTokenCounter | undefined;
  /**
   * The app's tool sources and their state, read per request and served as the catalog's `servers`
   * (devtools shows them in its MCP view): for `@chatwire/mcp`, `() => mcp.catalogStatus()`, or
   * `(request) => mcp.catalogStatusFor(request)` to include the request's user's sign-ins. Defaults
   * to none. Serve it only where the catalog is for the app's developers, like the devtools.
   */
  readonly servers?: ((request: Request) => readonly ToolServerStatus[] | Promise<readonly ToolServerStatus[]>) | undefined;
  /**
   * The chat's `discovery` options (the same object `chat()` gets): the catalog then says how the
   * discovery search is set up (`search`: mode, `topK`, `minScore`, groups, whether the app's own
   * search answers) and carries each lazy tool's input schema (`parameters`), which the search
   * indexes, so devtools' search playground and discovery health run the server's search in the
   * browser. Defaults to none. Like `servers`, serve it where the catalog is for the app's developers.
   */
  readonly discovery?: DiscoveryCatalogOptions | undefined;
}

/**
 * A Fetch handler for `GET` that answers with the tool catalog as JSON:
 * `{ tools: CatalogEntry[], counting: { method, errorBound }, servers?, search? }`. With a tools provider
 * (or `servers`) the catalog is read per request (and the handler returns a promise).
 */
export function createToolsHandler(
  tools: readonly AnyTool[],
  options?: { readonly counter?: ToolTokenCounter | undefined },
): (request: Request) => Response;
export function createToolsHandler(
  tools: readonly AnyTool[] | ToolsProvider,
  options?: ToolsHandlerOptions,
): (request: Request) => Response | Promise<Response>;
export function createToolsHandler(
  tools: readonly AnyTool[] | ToolsProvider,
  options: ToolsHandlerOptions = {},
): (request: Request) => Response | Promise<Response> {
  const counter = toolTokensFor(options.counter);
  const counting = { method: counter.method, errorBound: counter.errorBound };
  const { servers, discovery } = options;
  const catalogOf = (listed: readonly AnyTool[]): Pick<ToolCatalog, 'tools' | 'search'> => {
    const entries = describeTools(listed, options.counter);
    return discovery ? catalogSearch(listed, entries, discovery) : { tools: entries };
  };
  const fixed: ToolCatalog | undefined = typeof tools === 'function' || servers ? undefined : { ...catalogOf(tools), counting };
  const refuse = (request: Request) => jsonError(405, `Use GET for the tool catalog (got ${request.method}).`, 'method-not-allowed');
  if (fixed)
    return withDefaultMount((request: Request) => (request.method === 'GET' ? Response.json(fixed) : refuse(request)), '/api/tools');
  return withDefaultMount(async (request: Request) => {
    if (request.method !== 'GET') return refuse(request);
    const listed = typeof tools === 'function' ? await toolsFor(tools, request) : tools;
    const body: ToolCatalog = { ...catalogOf(listed), counting, ...(servers ? { servers: await servers(request) } : {}) };
    return Response.json(body);
  }, '/api/tools');
}
