import { randomBytes } from 'node:crypto';
import { EventType, type Event, type Interrupt, type Message } from '@ag-ui/core';
import { type InputRequest, type InputResponse, type JsonSchema, type ToolContext } from '@chatwire/core';
import { executeValidatedTool, INTERRUPT_REASONS, type InputRequestMetadata } from '@chatwire/core/shared';
import { isExposed, reportError } from '../errors/errorReport.js';
import { eventPrefixOf } from '../extensions/chatwireExtension.js';
import { MAX_INPUT_TIMEOUT_MS, MAX_PENDING_INPUTS, pendingInputs } from '../input/pendingInputs.js';
import { checkRequestedSchema, MAX_INPUT_MESSAGE_CHARS } from '../input/requestedSchema.js';
import { errorResult, resultEvent } from './resultEvents.js';
import type { RunContext } from '../run/runContext.js';
import type { PreparedCall } from './triageCalls.js';

/** Where a call's events go: the run it is attached to. */
export interface CallSink {
  /** A CUSTOM event the tool emitted. */
  readonly push: (event: Event) => void;
  /** The call's result. */
  readonly settle: (event: Event) => void;
  /** The call asked for input: the run ends with this interrupt once its other calls settle. */
  readonly park: (interrupt: Interrupt) => void;
}

/** What executeValidatedTool is given as the tool's time limit: the longest a timer takes (the call keeps the real one). */
const NO_TIMEOUT = 2 ** 31 - 1;

/**
 * One server call while it runs. It streams into the run it is attached to; a call waiting for the
 * user's input (`requestInput`) outlives that run, detached, and the run that carries the answer
 * attaches it again and streams the rest (its result included). Its signal follows the attached
 * run's, so stopping that run stops it.
 */
export class CallExecution {
  readonly prepared: PreparedCall;
  readonly #abort = new AbortController();
  readonly #messages: readonly Message[];
  #context: RunContext;
  #sink: CallSink | undefined;
  #unlink: (() => void) | undefined;
  #waiting: string | undefined;
  /** The call ended without a run to report to (no answer in time): whatever it returns is dropped. */
  #ended = false;
  #clock: ReturnType<typeof setTimeout> | undefined;
  #clockStartedAt = 0;
  #timeLeft: number;
  #timedOut = false;

  constructor(context: RunContext, prepared: PreparedCall, messages: readonly Message[]) {
    this.prepared = prepared;
    this.#context = context;
    this.#messages = messages;
    this.#timeLeft = prepared.tool.timeoutMs;
  }

  /** Streams into `context`'s run from now on; stopping that run stops the call. */
  attach(context: RunContext, sink: CallSink): void {
    this.detach();
    this.#context = context;
    this.#sink = sink;
    const stop = () => this.#abort.abort(context.signal.reason);
    if (context.signal.aborted) stop();
    else {
      context.signal.addEventListener('abort', stop, { once: true });
      this.#unlink = () => context.signal.removeEventListener('abort', stop);
    }
  }

  /**
   * The run ended while the call waits for input: it waits on, attached to nothing, and the end of that
   * run does not stop it. (A call that settled stays linked: ending its run stops whatever work it left.)
   */
  detach(): void {
    this.#unlink?.();
    this.#unlink = undefined;
    this.#sink = undefined;
  }

  /** Whether the call waits for an answer to its input request. */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** Runs the tool; its result goes to the sink attached when it settles. Never rejects. */
  start(): void {
    const { tool, input, call } = this.prepared;
    const emit = (name: string, value: unknown): void => {
      checkEventName(this.prepared.tool, name);
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch (error) {
        throw new TypeError(`emit('${name}'): the value is not JSON (${error instanceof Error ? error.message : String(error)}).`, {
          cause: error,
        });
      }
      // After its result (or with no run attached) the call's stream position is gone: dropped.
      // A copy: the tool may change its object after emitting it.
      this.#sink?.push({ type: EventType.CUSTOM, name, value: json === undefined ? null : (JSON.parse(json) as unknown) });
    };
    const requestInput = (request: InputRequest) => this.#requestInput(request);
    const toolContext: ToolContext = { toolCallId: call.id, signal: this.#abort.signal, messages: this.#messages, emit, requestInput };
    this.#startClock();
    // The tool's own time limit is kept here, not by executeValidatedTool, because its clock stops while the
    // tool waits for the user (requestInput has its own limit); only server tools can ask.
    // `input` is the validator's output (triage validated it for `needsApproval`): not validated again.
    void executeValidatedTool({ ...tool, timeoutMs: NO_TIMEOUT }, input, toolContext)
      .then((outcome) => this.#outcomeEvent(outcome))
      .catch((error: unknown) => {
        // Not expected (executeValidatedTool turns failures into outcomes), but a lost call would hang the run.
        const ref = reportError(this.#context.onError, {
          kind: 'run',
          error,
          threadId: this.#context.threadId,
          runId: this.#context.runId,
          toolName: tool.name,
          toolCallId: call.id,
        });
        return errorResult(this.#context, call, `Tool '${tool.name}' failed (ref ${ref}; details are in the server log).`);
      })
      .then((event) => {
        clearTimeout(this.#clock);
        if (this.#ended) return;
        this.#ended = true;
        const sink = this.#sink;
        this.#sink = undefined;
        sink?.settle(event);
      });
  }

  /** Starts (or resumes) the tool's own clock with the time it has left. */
  #startClock(): void {
    this.#clockStartedAt = Date.now();
    this.#clock = setTimeout(() => {
      this.#timedOut = true;
      this.#abort.abort(new Error(`'${this.prepared.tool.name}' timed out after ${this.prepared.tool.timeoutMs} ms`));
    }, this.#timeLeft);
  }

  /** Stops the tool's clock while it waits for the user. */
  #pauseClock(): void {
    clearTimeout(this.#clock);
    this.#timeLeft = Math.max(0, this.#timeLeft - (Date.now() - this.#clockStartedAt));
  }

  #outcomeEvent(outcome: Awaited<ReturnType<typeof executeValidatedTool>>): Event {
    const context = this.#context;
    const { call, tool, discovers, editedArguments } = this.prepared;
    // Call-to-load: the call discovered its tool, whatever its outcome, so later requests send it.
    const versions = discovers ? context.tools.discovery.versionsOf([tool.name]) : undefined;
    const loaded = discovers ? { discoveredTools: [tool.name], ...(versions ? { toolVersions: versions } : {}) } : {};
    const marker = editedArguments === undefined ? loaded : { ...loaded, editedArguments };
    if (this.#timedOut) return errorResult(context, call, `Tool '${tool.name}' failed: timed out after ${tool.timeoutMs} ms`, marker);
    if (outcome.ok) return resultEvent(context, call, outcome.content, marker);
    if (!('thrown' in outcome)) return errorResult(context, call, outcome.error, marker);
    // The tool threw: its text may hold secrets (connection strings, internal hosts). The model and the
    // client read a safe message unless the tool exposed it (redacted by errorResult); the details go to onError.
    const ref = reportError(context.onError, {
      kind: 'tool',
      error: outcome.thrown,
      threadId: context.threadId,
      runId: context.runId,
      toolName: tool.name,
      toolCallId: call.id,
    });
    const shown = isExposed(outcome.thrown)
      ? `Tool '${tool.name}' failed: ${outcome.thrown.message}`
      : `Tool '${tool.name}' failed (ref ${ref}; details are in the server log).`;
    return errorResult(context, call, shown, marker);
  }

  #requestInput(request: InputRequest): Promise<InputResponse> {
    const name = this.prepared.tool.name;
    const problem = checkInputRequest(request);
    if (problem) return Promise.reject(new TypeError(`requestInput (tool '${name}'): ${problem}.`));
    if (this.#waiting !== undefined)
      return Promise.reject(
        new TypeError(`requestInput (tool '${name}'): this call already waits for an answer; ask one thing at a time.`),
      );
    const sink = this.#sink;
    // Stopped, or nobody to ask: the answer is a cancel, at once.
    if (this.#ended || !sink || this.#abort.signal.aborted) return Promise.resolve({ action: 'cancel' });
    if (pendingInputs.size >= MAX_PENDING_INPUTS) {
      return Promise.reject(
        new Error(
          `requestInput (tool '${name}'): ${MAX_PENDING_INPUTS} input requests wait in this server process already, the most it holds; try again once some are answered.`,
        ),
      );
    }
    const context = this.#context;
    const timeoutMs = request.timeoutMs ?? context.inputRequestTimeoutMs;
    const expiresAt = Math.floor(Date.now() + timeoutMs);
    const nonce = randomBytes(9).toString('base64url');
    const id = context.signer.inputRequestId(context.threadId, this.prepared.call.id, nonce, expiresAt);
    // URL mode asks for no fields: the answer is accept, decline or cancel alone.
    const schema = (request.url === undefined ? request.schema : EMPTY_FORM) as JsonSchema;
    return new Promise<InputResponse>((resolve) => {
      const signal = this.#abort.signal;
      const finish = (answer: InputResponse) => {
        signal.removeEventListener('abort', onAbort);
        this.#waiting = undefined;
        if (!this.#ended) this.#startClock();
        resolve(answer);
      };
      const onAbort = () => {
        if (pendingInputs.take(id)) finish({ action: 'cancel' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pendingInputs.add(
        {
          id,
          threadId: context.threadId,
          user: context.approvals.user,
          toolCallId: this.prepared.call.id,
          toolName: name,
          schema,
          expiresAt,
          call: this,
          deliver: (answer) => {
            if (this.#ended || this.#waiting !== id) return false;
            finish(answer);
            return true;
          },
        },
        () => {
          // Nobody answered in time: the tool reads a cancel, and the call ends here. Its result has no
          // run to go to (a late answer is told the request expired), and its signal stops what it still does.
          this.#ended = true;
          this.detach();
          finish({ action: 'cancel' });
          setImmediate(() => this.#abort.abort(new Error(`Nobody answered the input request of '${name}' within ${timeoutMs} ms.`)));
        },
      );
      this.#waiting = id;
      this.#pauseClock();
      const metadata: InputRequestMetadata = {
        toolCallId: this.prepared.call.id,
        toolName: name,
        schema,
        ...(request.url === undefined ? {} : { url: request.url }),
        ...(request.connect === undefined ? {} : { connect: request.connect }),
      };
      sink.park({
        id,
        reason: INTERRUPT_REASONS.inputRequest,
        message: request.message,
        expiresAt: new Date(expiresAt).toISOString(),
        responseSchema: {
          type: 'object',
          properties: {
            action: {
              type: 'string',
              enum: ['accept', 'decline', 'cancel'],
              description: 'accept sends content; decline and cancel send nothing.',
            },
            content: schema,
          },
          required: ['action'],
        },
        metadata: { chatwire: { inputRequest: metadata } },
      });
    });
  }
}

/** The schema of a URL-mode request: no fields. */
const EMPTY_FORM = { type: 'object', properties: {} } as const;

/** The longest link a URL-mode input request may carry. */
const MAX_INPUT_URL_CHARS = 8_192;

/** Why a URL-mode request's `url` and `connect` are not usable, or `undefined`. */
function urlProblem(request: InputRequest): string | undefined {
  if (request.connect !== undefined && (typeof request.connect !== 'string' || !/^[a-zA-Z0-9_.-]{1,64}$/.test(request.connect)))
    return 'connect must name what the link connects in 1-64 letters, digits, _, . or -';
  if (request.url === undefined) return request.connect === undefined ? undefined : 'connect needs a url';
  if (typeof request.url !== 'string' || request.url.length > MAX_INPUT_URL_CHARS)
    return `the url must be a string of at most ${MAX_INPUT_URL_CHARS} characters`;
  try {
    const { protocol } = new URL(request.url);
    if (protocol === 'https:' || protocol === 'http:') return undefined;
  } catch {
    // not a URL
  }
  return 'the url must be an absolute http: or https: URL';
}

/** Why an input request is not one, or `undefined`. */
function checkInputRequest(request: InputRequest): string | undefined {
  if (typeof request !== 'object' || request === null) return 'pass { message, schema, timeoutMs? }';
  const link = urlProblem(request);
  if (link) return link;
  if (typeof request.message !== 'string' || request.message.trim() === '') return 'the message must be a non-empty string';
  if (request.message.length > MAX_INPUT_MESSAGE_CHARS)
    return `the message is ${request.message.length} characters; at most ${MAX_INPUT_MESSAGE_CHARS} are allowed`;
  const timeout = request.timeoutMs;
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_INPUT_TIMEOUT_MS)
  ) {
    return `timeoutMs must be a positive number of milliseconds, at most ${MAX_INPUT_TIMEOUT_MS} (24 hours)`;
  }
  return request.url === undefined ? checkRequestedSchema(request.schema) : undefined;
}

/**
 * Names a tool may not use for its CUSTOM events: the client reads these as Chatwire's own. A tool a
 * server package extended may use its namespace within it (`extendTools`).
 */
const RESERVED_PREFIX = 'chatwire.';

function checkEventName(tool: PreparedCall['tool'], name: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError('emit(name, value): the event name must be a non-empty string.');
  const granted = eventPrefixOf(tool);
  if (name.startsWith(RESERVED_PREFIX) && !(granted !== undefined && name.startsWith(granted) && name.length > granted.length)) {
    throw new TypeError(
      `emit('${name}'): event names starting with '${RESERVED_PREFIX}' are reserved for Chatwire${granted ? ` (this tool may emit '${granted}*')` : ''}.`,
    );
  }
}
