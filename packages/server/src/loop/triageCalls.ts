import type { Event, Interrupt, ToolCall } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ServerTool } from '@chatwire/core';
import {
  describeError,
  parseToolArguments,
  loadingFailure,
  mayRunLazyCall,
  resolveNeedsApproval,
  unavailableError,
  validateToolInput,
  INTERRUPT_REASONS,
} from '@chatwire/core/shared';
import { canonicalArguments } from '../binding/canonicalArguments.js';
import { decideCall, decisionEvent, grantOptionsFor } from './runApprovals.js';
import { deniedResult, errorResult, resultEvent } from './resultEvents.js';
import type { RunContext } from '../run/runContext.js';
import type { RegisteredTool } from '../tools/toolRegistry.js';

/** `Interrupt.reason` of a tool approval: the AG-UI core value for an interrupt bound to a tool call. */
/** AG-UI's own interrupt reason for a tool call awaiting approval. */
const APPROVAL_REASON = INTERRUPT_REASONS.toolApproval;

/** A server call ready to run: its tool, and its input parsed and validated exactly once. */
export interface PreparedCall {
  readonly call: ToolCall;
  readonly tool: ServerTool<string, unknown, unknown>;
  /** The input as the schema returned it (transforms and defaults applied). */
  readonly input: unknown;
  /** Call-to-load: the call names a lazy tool nobody discovered, so its result records the discovery. */
  readonly discovers?: boolean;
  /** Approved with edits: the edited arguments (canonical JSON) the call runs with; its result says so. */
  readonly editedArguments?: string;
}

/** What a model response's calls need, once the ones answered at once are answered. */
export interface Triage {
  /** Server calls to run now. */
  readonly serverCalls: PreparedCall[];
  /** Server calls waiting for the user's approval. */
  readonly interrupts: Interrupt[];
  /** Browser (frontend) calls left for the application to answer, in the order the model made them. */
  readonly pending: string[];
}

/** Parses and validates a server call's arguments, once; the error is what the model reads. */
export async function prepareServerCall(
  tool: ServerTool<string, unknown, unknown>,
  call: ToolCall,
  discovers = false,
): Promise<{ readonly ok: true; readonly prepared: PreparedCall } | { readonly ok: false; readonly error: string }> {
  let raw: unknown;
  try {
    raw = parseToolArguments(call.function.arguments);
  } catch (error) {
    return { ok: false, error: `Invalid JSON in the arguments of '${tool.name}': ${describeError(error)}` };
  }
  const valid = await validateToolInput(tool, raw);
  return valid.ok
    ? { ok: true, prepared: { call, tool, input: valid.value, ...(discovers ? { discovers } : {}) } }
    : { ok: false, error: valid.error };
}

/**
 * Sorts the calls of one model response. Discovery calls and calls nobody can run are answered at
 * once (yielded as results); server calls are prepared and either run or wait for approval; calls
 * of frontend tools are left unanswered for the application (AG-UI: the run then finishes as
 * success naming them in `pendingToolCallIds`).
 */
export async function* triageCalls(context: RunContext, calls: readonly ToolCall[]): AsyncGenerator<Event, Triage, undefined> {
  const { registry, discovery, answersDiscovery } = context.tools;
  const serverCalls: PreparedCall[] = [];
  const interrupts: Interrupt[] = [];
  const pending: string[] = [];
  const isServerDiscovery = (call: ToolCall) => call.function.name === DISCOVERY_TOOL_NAME && answersDiscovery;

  // Discovery first: its results join the history, so a tool loaded by this same response may be called by it too.
  for (const call of calls) {
    if (!isServerDiscovery(call)) continue;
    const answer = await discovery.answer(call, context.history);
    yield answer.ok ? resultEvent(context, call, answer.content, {}) : errorResult(context, call, answer.error ?? 'discovery failed');
  }
  for (const call of calls) {
    if (isServerDiscovery(call)) continue;
    const found = registry.get(call.function.name);
    // A tool only MCP Apps may call is, to the model, a tool that does not exist.
    const tool = found?.appOnly ? undefined : found;
    if (!tool) {
      const available =
        registry
          .eager()
          .map((t) => t.name)
          .join(', ') || 'none';
      const more = discovery.deferring ? ` More tools can be loaded with ${discovery.loadingTool}.` : '';
      yield errorResult(context, call, `Unknown tool '${call.function.name}'. Available tools: ${available}.${more}`);
      continue;
    }
    // A lazy tool was withheld from the model until discovered. A call of one the `load` policy
    // refuses gets a final answer: discovering it cannot help, so no discover-and-call loop.
    if (tool.lazy && discovery.deferring && (await discovery.isRefused(tool.name))) {
      yield errorResult(context, call, unavailableError(tool.name));
      continue;
    }
    // Otherwise a call before its discovery is the discovery (call-to-load), or, in `self-correct`
    // mode, the model's mistake, answered here (also for browser tools) so it can correct itself
    // with the tool it loads tools with (the discovery tool, or the provider's own search).
    const undiscovered = !(await mayRunLazyCall(tool, () => discovery.discovered(context.history), discovery.deferring));
    if (undiscovered && discovery.undiscoveredCalls === 'self-correct') {
      yield errorResult(context, call, discovery.selfCorrectionError(tool.name), { undiscovered: true });
      continue;
    }
    if (tool.lazy && discovery.deferring && !(await discovery.isActive(tool.name))) {
      yield errorResult(context, call, unavailableError(tool.name));
      continue;
    }
    if (tool.runsOn === 'client') {
      // A tool from the server's list that runs elsewhere needs the browser to have announced it
      // (a server tool of the same name as a frontend tool records it in `shadowed`); otherwise
      // nobody would ever answer the call and it would wait forever.
      if (tool.source === 'server' && !registry.shadowed.includes(tool.name)) {
        yield errorResult(context, call, unimplementedToolError(tool.name));
        continue;
      }
      // A lazy browser tool runs only after its discovery: this call does not run, but it loads the
      // tool, so the model's retry (in the next model call of this run) goes to the browser.
      if (undiscovered) {
        const { error, metadata } = loadingFailure(tool.name);
        yield errorResult(context, call, error, metadata.chatwire);
        continue;
      }
      // The application's to answer, arguments and all (AG-UI: what to do with arguments that do
      // not parse is the application's decision, and a producer never answers a frontend call).
      pending.push(call.id);
      continue;
    }
    const server = tool.server as ServerTool<string, unknown, unknown>;
    const prepared = await prepareServerCall(server, call, undiscovered);
    if (!prepared.ok) {
      if (!undiscovered) yield errorResult(context, call, prepared.error);
      else {
        // Call-to-load with arguments that do not validate: the error carries the schema and loads the tool.
        const { error, metadata } = loadingFailure(tool.name, `${prepared.error}\nIts input schema: ${JSON.stringify(tool.parameters)}`);
        yield errorResult(context, call, error, metadata.chatwire);
      }
      continue;
    }
    const approved = yield* approveServerCall(context, tool, prepared.prepared);
    if (approved === 'run') serverCalls.push(prepared.prepared);
    else if (approved) interrupts.push(approved);
  }
  return { serverCalls, interrupts, pending };
}

/**
 * Who decides a prepared server call: the policies, then grants, then the tool's own
 * `needsApproval`. Returns `run`, the approval interrupt the call waits on, or `undefined` when it
 * was answered here (declined, or its arguments cannot be approved: its result is yielded).
 */
export async function* approveServerCall(
  context: RunContext,
  tool: RegisteredTool,
  prepared: PreparedCall,
): AsyncGenerator<Event, 'run' | Interrupt | undefined, undefined> {
  const { call } = prepared;
  // A failing policy asks rather than runs.
  const needsApproval = await resolveNeedsApproval(prepared.tool, prepared.input);
  // Policies, then grants: a call may run, or be declined, without anyone being asked.
  const verdict = await decideCall(context, tool, call, prepared.input, needsApproval);
  if (verdict.decision) yield decisionEvent(verdict.decision);
  if (verdict.kind === 'run') return 'run';
  if (verdict.kind === 'deny') {
    yield deniedResult(context, call, undefined, verdict.reason);
    return undefined;
  }
  const interrupt = approvalInterrupt(context, call, tool.name, verdict.message);
  if (typeof interrupt !== 'string') return interrupt;
  yield errorResult(context, call, interrupt);
  return undefined;
}

/** How much of the arguments an approval's prompt quotes. */
const PROMPT_ARGUMENTS_CHARS = 200;

/** The approval interrupt for a call, bound through its id; or why the call cannot be approved. */
function approvalInterrupt(context: RunContext, call: ToolCall, toolName: string, policyMessage?: string): Interrupt | string {
  const expiresAt = Date.now() + context.approvalTtlMs;
  // A tool that tracks drift binds its definition version too: an approval of a tool that changed no longer matches.
  const id = context.signer.approvalId(
    context.threadId,
    call,
    expiresAt,
    context.store.scope,
    context.tools.discovery.fingerprint(call.function.name),
  );
  const canonical = canonicalArguments(call.function.arguments);
  if (id === undefined || !canonical.ok) {
    return `The arguments of '${toolName}' cannot be approved: ${canonical.ok ? 'they have no canonical form' : canonical.reason}.`;
  }
  const grantOptions = grantOptionsFor(context.approvals, toolName);
  const shown = canonical.text.length > PROMPT_ARGUMENTS_CHARS ? `${canonical.text.slice(0, PROMPT_ARGUMENTS_CHARS)}…` : canonical.text;
  return {
    id,
    reason: APPROVAL_REASON,
    toolCallId: call.id,
    message: policyMessage ?? `Allow '${toolName}' to run with ${shown}?`,
    expiresAt: new Date(expiresAt).toISOString(),
    responseSchema: {
      type: 'object',
      properties: {
        approved: { type: 'boolean', description: 'true runs the call; false declines it.' },
        reason: { type: 'string', description: 'Why it was declined; the model reads it.' },
        // AG-UI approve-with-edits: its presence is the signal that edits are accepted.
        editedArgs: {
          ...editableSchema(context, toolName),
          description: 'Full replacement of the arguments (not merged); validated against the tool schema.',
        },
        grant: {
          type: 'string',
          enum: grantOptions,
          description: "Remember the answer: 'once' (this call), 'thread' (this chat), 'always' (this tool, for this user).",
        },
        grantArguments: { type: 'boolean', description: 'With grant: only for these exact arguments.' },
      },
      required: ['approved'],
    },
    metadata: { chatwire: { toolName, grantOptions } },
  };
}

/** The schema of a tool's arguments, as `editedArgs` offers it (an object schema). */
function editableSchema(context: RunContext, toolName: string): Record<string, unknown> {
  const parameters = context.tools.registry.get(toolName)?.parameters;
  return parameters && typeof parameters === 'object' && !Array.isArray(parameters)
    ? { ...parameters, type: 'object' }
    : { type: 'object' };
}

/** The error for a call nobody can run: named, with both ways to fix it. */
function unimplementedToolError(name: string): string {
  return (
    `Tool '${name}' has no implementation: the server registers its definition without .server(impl), ` +
    `and the browser did not announce it in this run's tools. Register ${name}.server(impl) on the server, ` +
    `or pass ${name}.client(impl) (or the definition, answered with addToolResult) in the browser's tools.`
  );
}
