import { type AnyTool, type DiscoveryCatalogOptions } from '@chatwire/core';
import { type ToolCatalog, type ToolCatalogEntry, type ToolServerStatus } from '@chatwire/core/shared';
import { withDefaultMount } from '../http/defaultMount.js';
import type { OriginPolicyOptions } from '../http/originPolicy.js';
import type { HostPolicyOptions } from '../http/hostPolicy.js';
import { wasAdmitted } from '../http/largeBodyTurns.js';
import { RunsPerOwner, type RunsPerOwnerOptions } from '../http/runsPerOwner.js';
import { fetchArrival, withArrivalPath, type ChatArrival } from '../http/chatArrival.js';
import { CallSigner } from '../binding/signing.js';
import type { ToolTokenCounter } from '../model/chatModel.js';
import { countTextTokens, toolTokensFor } from '../model/tokens.js';
import { catalogSearch } from '../discovery/catalogSearch.js';
import { toServerSentEventsResponse } from '../http/sse.js';
import { ChatwireConfigError } from '../binding/secret.js';
import { grantLifetimesOf } from '../approvals/grants.js';
import { ResumableStreams, type ResumableStreamOptions } from '../resumable/resumableStreams.js';
import { createMemoryRunStore } from '../store/memoryRunStore.js';
import type { RunStreamStore } from '../store/runStreamStore.js';
import type { ThreadStore } from '../threads/threadStore.js';
import { jsonError, serveChat, type ChatRunDefaults, type ChatServeSetup } from './serveChat.js';

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

export { TOOL_NAME_PATTERN, jsonError } from './serveChat.js';

/** Options of {@link createChatHandler}: everything `chat()` takes except the per-request parts. */
export interface ChatHandlerOptions extends ChatRunDefaults, OriginPolicyOptions, HostPolicyOptions {
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
  const setup: ChatServeSetup = {
    signer,
    allowedHosts,
    policy: { ...(allowedOrigins ? { allowedOrigins } : {}), ...(trustProxy ? { trustProxy } : {}) },
    limits: { ...DEFAULT_REQUEST_LIMITS, ...limitOptions },
    resumable: resumableOption ? resumableStreamsFor(options, signer) : undefined,
    runsPerOwner: ownerOptions ? new RunsPerOwner(ownerOptions) : undefined,
    tools: toolsOption,
    appTools: appToolsOption,
    userOf,
    threads,
    chatDefaults,
    onError: options.onError,
    reportMissingSecret: (error) => {
      if (secretReported) return;
      secretReported = true;
      console.error(`[chatwire] ${error.message}`);
    },
  };
  // Every check and the run's start, on an arrival: a Fetch Request (the handler below), or a node
  // request `toNodeListener` read itself (see `ChatArrival`), so both ways in share one implementation.
  const serve = (arrival: ChatArrival) => serveChat(setup, arrival);
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
