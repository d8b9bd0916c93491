import type { RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import type { AnyTool, McpAppCallRequest } from '@chatwire/core';
import { reviewChatRequest, runChat, type ChatOptions, type ReviewedRequest } from '../loop/chat.js';
import { reportError } from '../errors/errorReport.js';
import { ChatRequestError } from '../errors/chatRequestError.js';
import { checkOrigin, corsHeaders, preflightResponse, withCors, type OriginPolicyOptions } from '../http/originPolicy.js';
import { checkHost, type HostPolicyOptions } from '../http/hostPolicy.js';
import { checkRunInputIds } from '../http/checkIds.js';
import { IdFieldScan } from '../http/idFieldScan.js';
import { arrivalTurn, runStartTurn } from '../http/largeBodyTurns.js';
import { RunsPerOwner, releasing } from '../http/runsPerOwner.js';
import { isJsonContentType, jsonOfBytes, readJsonBody } from '../http/readJsonBody.js';
import type { ChatAnswer, ChatArrival } from '../http/chatArrival.js';
import { readRunInput } from '../http/readRunInput.js';
import { readAppCall } from '../http/readAppCall.js';
import { parseRunInputText, rememberCheckedMessages } from '../http/knownMessages.js';
import type { CallSigner } from '../binding/signing.js';
import { checkAttachments } from '../attachments/checkAttachments.js';
import { ChatwireConfigError } from '../binding/secret.js';
import { RESUMABLE_RESPONSE_HEADERS, type OpenedRun, type ResumableStreams } from '../resumable/resumableStreams.js';
import { persistRun } from '../threads/persistRun.js';
import { NO_OWNER, type ThreadStore } from '../threads/threadStore.js';
import { commitTurn, placeTurn, type PlacedTurn } from '../threads/turnStart.js';
import { summarizeBranch } from '../history/branchSummary.js';
import type { RequestLimits, ToolsProvider, UserOf } from './handler.js';

/**
 * Tool names the handler accepts from the browser: AG-UI leaves names open, so this is the rule of
 * the providers the names are sent to (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`).
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** A JSON error response. */
export function jsonError(status: number, error: string, code?: string): Response {
  return Response.json({ error, ...(code ? { code } : {}) }, { status });
}

/** The `chat()` options a handler sets once; each request adds the rest. */
export type ChatRunDefaults = Omit<
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
>;

/** What a chat handler resolved from its options at creation, read by every request's guards. */
export interface ChatServeSetup {
  readonly signer: CallSigner;
  readonly allowedHosts: HostPolicyOptions['allowedHosts'];
  readonly policy: OriginPolicyOptions;
  readonly limits: Required<RequestLimits>;
  readonly resumable: ResumableStreams | undefined;
  readonly runsPerOwner: RunsPerOwner | undefined;
  readonly tools: readonly AnyTool[] | ToolsProvider | undefined;
  readonly appTools: readonly AnyTool[] | ToolsProvider | undefined;
  readonly userOf: UserOf | undefined;
  readonly threads: ThreadStore | undefined;
  readonly chatDefaults: ChatRunDefaults;
  readonly onError: ChatOptions['onError'];
  /** Says once, in the log, that the server has no secret (each request still gets its 500). */
  readonly reportMissingSecret: (error: ChatwireConfigError) => void;
}

/**
 * One request on its way through the guards: what each guard learnt (set by that guard, read by
 * the guards after it) and what a refused request gives back, once, in the reverse order it was taken.
 */
class Admission {
  corsOrigin: string | undefined;
  body: unknown;
  input!: RunAgentInput;
  appCall: McpAppCallRequest | undefined;
  tools: readonly AnyTool[] = [];
  appTools: readonly AnyTool[] = [];
  user: string | undefined;
  owner: string = NO_OWNER;
  turn: PlacedTurn | undefined;
  opened: OpenedRun | undefined;
  chatOptions!: ChatOptions;
  review!: ReviewedRequest;
  /** Gives the owner's run slot back: called by the cleanup of a refusal, or when the run's events end. */
  releaseSlot: () => void = () => {};
  /** The run's abort: the client's disconnect (without resumable streams) and the run's own stop. */
  readonly abort = new AbortController();
  readonly #giveBack: (() => void | Promise<void>)[] = [];

  constructor(
    readonly setup: ChatServeSetup,
    readonly arrival: ChatArrival,
  ) {}

  /** A JSON error with the request's CORS headers. */
  fail(status: number, error: string, code: string): Response {
    return withCors(jsonError(status, error, code), this.corsOrigin);
  }

  /** A response with the request's CORS headers (and the resume headers exposed, with resumable streams). */
  cors(response: Response): Response {
    if (this.setup.resumable && this.corsOrigin !== undefined)
      response.headers.set('access-control-expose-headers', RESUMABLE_RESPONSE_HEADERS.join(', '));
    return withCors(response, this.corsOrigin);
  }

  /** Reports an unexpected error to `onError` with the run's ids; the ref the answer names. */
  report(error: unknown): string {
    return reportError(this.setup.onError, { kind: 'run', error, threadId: this.input.threadId, runId: this.input.runId });
  }

  /** What the request took and a refusal gives back (a slot, a listener, a run opened in the store). */
  takeBack(giveBack: () => void | Promise<void>): void {
    this.#giveBack.push(giveBack);
  }

  /** Gives back everything taken, newest first; the run's start takes them over instead. */
  async close(): Promise<void> {
    for (const giveBack of this.#giveBack.splice(0).reverse()) await giveBack();
  }
}

/** One check of a request: an answer (a refusal, a preflight, a resumed stream), or `undefined` to go on. */
type ChatGuard = (admission: Admission) => Response | undefined | Promise<Response | undefined>;

/** A `Host` the server does not serve (DNS rebinding): 403 `forbidden-host`. */
const servedHost: ChatGuard = async ({ arrival, setup }) => {
  if (setup.allowedHosts === undefined) return undefined;
  const foreign = checkHost(arrival.headers.get('host') ?? new URL(arrival.url).host, setup.allowedHosts);
  if (foreign === undefined) return undefined;
  await arrival.discardBody();
  return jsonError(403, foreign, 'forbidden-host');
};

/** A server without its secret in production serves no chat: 500 `missing-secret` (logged once). */
const configuredSecret: ChatGuard = async ({ arrival, setup }) => {
  try {
    setup.signer.ready();
    return undefined;
  } catch (error) {
    if (!(error instanceof ChatwireConfigError)) throw error;
    setup.reportMissingSecret(error);
    await arrival.discardBody();
    return jsonError(500, 'This server is not configured to serve chats: it has no CHATWIRE_SECRET (see its log).', error.code);
  }
};

/** A preflight is answered; a page of another origin gets 403 `forbidden-origin`. Sets the CORS origin. */
const allowedOrigin: ChatGuard = (admission) => {
  const { arrival, setup } = admission;
  const origin = checkOrigin(arrival, setup.policy);
  if (arrival.method === 'OPTIONS') return preflightResponse(arrival.request(), origin, setup.resumable ? 'GET, POST, DELETE' : 'POST');
  if (!origin.ok) return admission.fail(403, origin.message, 'forbidden-origin');
  admission.corsOrigin = origin.corsOrigin;
  return undefined;
};

/** With resumable streams, `GET` reads a run again and `DELETE` stops it. */
const resumeOrStop: ChatGuard = async (admission) => {
  const { arrival, setup } = admission;
  if (!setup.resumable) return undefined;
  if (arrival.method === 'GET') return admission.cors(await setup.resumable.resume(arrival.request()));
  if (arrival.method === 'DELETE') return admission.cors(await setup.resumable.stop(arrival.request()));
  return undefined;
};

/** Anything but `POST` left: 405. */
const postMethod: ChatGuard = (admission) =>
  admission.arrival.method === 'POST'
    ? undefined
    : admission.fail(405, `Use POST to start a run (got ${admission.arrival.method}).`, 'method-not-allowed');

/** A body that is not JSON (a scriptless cross-site form sends `text/plain`): 415. */
const jsonContentType: ChatGuard = async (admission) => {
  const type = admission.arrival.headers.get('content-type');
  if (isJsonContentType(type)) return undefined;
  await admission.arrival.discardBody();
  return admission.fail(
    415,
    `The request body must be JSON, sent with \`Content-Type: application/json\` (got ${JSON.stringify(type ?? 'none')}).`,
    'unsupported-media-type',
  );
};

/**
 * One request read and checked per event-loop turn: a burst that arrived together is spread over
 * turns. A request the node adapter admitted on its own turn (see `admitRequest`) is read, checked and
 * started in that turn.
 */
const arrivalPacing: ChatGuard = async ({ arrival }) => {
  if (!arrival.admitted) await arrivalTurn();
  return undefined;
};

/**
 * The body within the size limit, as JSON (413/400). An oversized id is refused as it arrives, before
 * megabytes of it are decoded and parsed (a body the adapter read whole is small: parsed whole, as
 * `readJsonBody` parses a small body).
 */
const boundedBody: ChatGuard = async (admission) => {
  const { arrival, setup } = admission;
  const body = arrival.bytes
    ? jsonOfBytes(arrival.bytes, setup.limits.maxBodyBytes, parseRunInputText)
    : await readJsonBody(arrival.request(), setup.limits.maxBodyBytes, new IdFieldScan(), parseRunInputText);
  if (!body.ok) return admission.fail(body.status, body.error, body.code);
  admission.body = body.value;
  return undefined;
};

/** More messages or tools than the limits allow (413): counted before the schema walks every message. */
const countedInput: ChatGuard = (admission) => {
  const { limits } = admission.setup;
  const { messages, tools } = (admission.body ?? {}) as { messages?: unknown; tools?: unknown };
  if (Array.isArray(messages) && messages.length > limits.maxMessages) {
    return admission.fail(
      413,
      `The run input has ${messages.length} messages; this server accepts at most ${limits.maxMessages} (\`limits.maxMessages\`).`,
      'too-many-messages',
    );
  }
  if (Array.isArray(tools) && tools.length > limits.maxTools) {
    return admission.fail(
      413,
      `The run input has ${tools.length} tools; this server accepts at most ${limits.maxTools} (\`limits.maxTools\`).`,
      'too-many-tools',
    );
  }
  return undefined;
};

/** A body that is not an AG-UI `RunAgentInput`: 400 `invalid-run-input`. Sets the input. */
const runInputShape: ChatGuard = (admission) => {
  const parsed = readRunInput(admission.body);
  if (!parsed.ok) return admission.fail(400, `The request body is not an AG-UI RunAgentInput: ${parsed.error}.`, 'invalid-run-input');
  admission.input = parsed.input;
  return undefined;
};

/** Ids before anything stores or echoes them: short and printable, or a 400 naming the field. */
const printableIds: ChatGuard = (admission) => {
  const bad = checkRunInputIds(admission.input);
  return bad ? admission.fail(400, bad.error, 'invalid-id') : undefined;
};

/** Tool names no provider accepts, and two tools with one name (400). */
const toolNames: ChatGuard = (admission) => {
  const seen = new Set<string>();
  for (const tool of admission.input.tools ?? []) {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      const shown = JSON.stringify(tool.name.length > 80 ? `${tool.name.slice(0, 80)}…` : tool.name);
      return admission.fail(
        400,
        `Tool name ${shown} is not allowed: tool names are 1 to 64 letters, digits, '_' or '-'.`,
        'invalid-tool-name',
      );
    }
    if (seen.has(tool.name)) return admission.fail(400, `Two tools in the run input are named '${tool.name}'.`, 'duplicate-tool');
    seen.add(tool.name);
  }
  return undefined;
};

/** An MCP App's call that is not one (400 `invalid-app-call`). Sets the app call. */
const appCallShape: ChatGuard = (admission) => {
  const read = readAppCall(admission.input);
  if ('error' in read) return admission.fail(400, read.error, 'invalid-app-call');
  admission.appCall = read.appCall;
  return undefined;
};

/**
 * Attachments over the limits (413/400). The input then passed every check: the next turn's request,
 * which carries its new messages again, takes them as checked, and finds the branch it continues
 * summarised (held by the cache of checked messages).
 */
const attachmentLimits: ChatGuard = (admission) => {
  const refused = checkAttachments(admission.input.messages, admission.setup.limits);
  if (refused) return admission.fail(refused.status, refused.error, refused.code);
  for (const branch of rememberCheckedMessages(admission.body, admission.input.messages)) summarizeBranch(branch, { hold: false });
  return undefined;
};

/**
 * The client's disconnect stops the run (with resumable streams it only detaches the reader; the run
 * stops on `DELETE`). Followed before anything below awaits, and a client already gone stops it at once:
 * a listener added to an aborted signal never fires.
 */
const followClient: ChatGuard = (admission) => {
  const signal = admission.arrival.signal;
  if (admission.setup.resumable || !signal) return undefined;
  const stop = () => admission.abort.abort();
  if (signal.aborted) stop();
  else {
    signal.addEventListener('abort', stop, { once: true });
    admission.takeBack(() => signal.removeEventListener('abort', stop));
  }
  return undefined;
};

/** The owner's cap on runs in flight (429); an `ownerOf` that throws is a 500 with a ref. Takes a slot. */
const ownerSlot: ChatGuard = async (admission) => {
  const { runsPerOwner } = admission.setup;
  if (!runsPerOwner) return undefined;
  let slot: (() => void) | Response;
  try {
    slot = await runsPerOwner.acquire(admission.arrival.request());
  } catch (error) {
    // The app's ownerOf failed (often on a token the client sent): reported, never shown, and the handler keeps serving.
    const ref = admission.report(error);
    return admission.fail(
      500,
      `The request's owner could not be determined (ref ${ref}; details are in the server log).`,
      'internal-error',
    );
  }
  if (slot instanceof Response) return admission.cors(slot);
  admission.releaseSlot = slot;
  admission.takeBack(slot);
  return undefined;
};

/**
 * One run start per event-loop turn (the slot held meanwhile, so the owner's cap counts this run): a
 * burst of requests never starts all its runs, with their reviews and first steps, in one turn.
 */
const runStartPacing: ChatGuard = async ({ arrival }) => {
  if (!arrival.admitted) await runStartTurn();
  return undefined;
};

/** The request's tools, app tools and user, from the app's providers (a throw is a 500 with a ref). */
const toolsAndUser: ChatGuard = async (admission) => {
  const { arrival, setup } = admission;
  try {
    admission.tools = typeof setup.tools === 'function' ? await setup.tools(arrival.request()) : (setup.tools ?? []);
    admission.appTools = typeof setup.appTools === 'function' ? await setup.appTools(arrival.request()) : (setup.appTools ?? []);
    admission.user = setup.userOf ? await setup.userOf(arrival.request()) : undefined;
  } catch (error) {
    const ref = admission.report(error);
    return admission.fail(500, `The server's tools or the request's user could not be read (ref ${ref}).`, 'internal-error');
  }
  if (typeof admission.user === 'string' && admission.user !== '') admission.owner = admission.user;
  return undefined;
};

/** The answer when the thread store failed. */
const threadsUnavailable = (admission: Admission, error: unknown): Response =>
  admission.fail(
    503,
    `The thread store is unavailable; nothing was saved. Try again shortly (ref ${admission.report(error)}).`,
    'threads-unavailable',
  );

/** With a thread store, the thread decides the history: the stored branch the request continues. */
const threadPlacement: ChatGuard = async (admission) => {
  const { threads } = admission.setup;
  if (!threads) return undefined;
  const { input } = admission;
  try {
    const placed = await placeTurn(threads, admission.owner, input.threadId, input.messages);
    if (!placed.ok) return admission.fail(placed.status, placed.error, placed.code);
    admission.turn = placed;
    return undefined;
  } catch (error) {
    return threadsUnavailable(admission, error);
  }
};

/** With resumable streams, the run's place in the run store (503 past the budget, 409 a run already there). */
const openedRun: ChatGuard = async (admission) => {
  const { resumable } = admission.setup;
  if (!resumable) return undefined;
  const opened = await resumable.open(admission.input, admission.arrival.headers);
  if (opened instanceof Response) return admission.cors(opened);
  admission.opened = opened;
  admission.takeBack(() => resumable.discard(opened));
  return undefined;
};

/** The history and approvals verify (400 naming why; anything else a 500 with a ref). Sets the run's options. */
const reviewedRequest: ChatGuard = async (admission) => {
  const { arrival, input, user } = admission;
  admission.chatOptions = {
    ...admission.setup.chatDefaults,
    tools: admission.tools,
    ...(admission.appTools.length > 0 ? { appTools: admission.appTools } : {}),
    ...(admission.appCall ? { appCall: admission.appCall } : {}),
    ...(input.context.length > 0 ? { context: input.context } : {}),
    messages: admission.turn ? admission.turn.messages : input.messages,
    frontendTools: (input.tools ?? []) as WireTool[],
    threadId: input.threadId,
    runId: input.runId,
    ...(input.parentRunId === undefined ? {} : { parentRunId: input.parentRunId }),
    ...(input.resume ? { resume: input.resume } : {}),
    signal: admission.abort.signal,
    // Built only when something reads it (an approval policy, telemetry's trace context).
    get request() {
      return arrival.request();
    },
    ...(typeof user === 'string' && user !== '' ? { user } : {}),
  };
  try {
    admission.review = await reviewChatRequest(admission.chatOptions, true, admission.setup.signer);
    return undefined;
  } catch (error) {
    if (error instanceof ChatRequestError) return admission.fail(error.status, error.message, error.code);
    return admission.fail(500, `The request could not be checked (ref ${admission.report(error)}).`, 'internal-error');
  }
};

/** With a thread store, the request's new messages are stored before the run starts (a refusal or 503 says why not). */
const committedTurn: ChatGuard = async (admission) => {
  const { threads } = admission.setup;
  if (!threads || !admission.turn) return undefined;
  try {
    const refusal = await commitTurn(threads, admission.owner, admission.input.threadId, admission.turn);
    return refusal ? admission.fail(refusal.status, refusal.error, refusal.code) : undefined;
  } catch (error) {
    return threadsUnavailable(admission, error);
  }
};

/** Every check of a chat request, in order: the first that answers ends it. */
const CHAT_GUARDS: readonly ChatGuard[] = [
  servedHost,
  configuredSecret,
  allowedOrigin,
  resumeOrStop,
  postMethod,
  jsonContentType,
  arrivalPacing,
  boundedBody,
  countedInput,
  runInputShape,
  printableIds,
  toolNames,
  appCallShape,
  attachmentLimits,
  followClient,
  ownerSlot,
  runStartPacing,
  toolsAndUser,
  threadPlacement,
  openedRun,
  reviewedRequest,
  committedTurn,
];

/** Starts the run a request passed every guard for: its events (stored with a thread store) as the answer. */
function startRun(admission: Admission): ChatAnswer {
  const { setup, input, turn, opened, abort } = admission;
  const run = runChat(admission.chatOptions, admission.review, setup.signer);
  // The run's messages are stored (under the request's last new message) before its last event goes out.
  const stored =
    setup.threads && turn
      ? persistRun(run, {
          store: setup.threads,
          owner: admission.owner,
          threadId: input.threadId,
          runId: input.runId,
          parentId: turn.runParentId,
          onError: setup.onError,
        })
      : run;
  const events = releasing(stored, admission.releaseSlot);
  if (setup.resumable && opened) return admission.cors(setup.resumable.start(opened, events, abort, admission.arrival.signal));
  return { events, abort, headers: corsHeaders(admission.corsOrigin) };
}

/**
 * Serves one chat request (a Fetch Request or the node adapter's arrival): every guard in order, then
 * the run. What the guards took (the owner's slot, the client's listener, a run opened in the run
 * store) is given back once when the request is refused or a guard throws; a started run owns it.
 */
export async function serveChat(setup: ChatServeSetup, arrival: ChatArrival): Promise<ChatAnswer> {
  const admission = new Admission(setup, arrival);
  let started = false;
  try {
    for (const guard of CHAT_GUARDS) {
      const answer = await guard(admission);
      if (answer) return answer;
    }
    const answer = startRun(admission);
    started = true;
    return answer;
  } finally {
    if (!started) await admission.close();
  }
}
