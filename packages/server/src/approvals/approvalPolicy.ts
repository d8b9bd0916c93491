import type { Message } from '@ag-ui/core';
import { describeError } from '@chatwire/core/shared';
import { approvalFactsOf } from '../extensions/chatwireExtension.js';
import type { RegisteredTool } from '../tools/toolRegistry.js';

/** What an approval policy is told about the tool a call names. */
export interface PolicyTool {
  readonly name: string;
  readonly description: string;
  /** Its input's JSON Schema, as the model was given it. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly lazy: boolean;
  /** The tool's own rule for this input (`needsApproval`, evaluated). */
  readonly needsApproval: boolean;
  /** For an MCP server's tool: the server's name and the tool's annotations as that server declared them (untrusted hints). */
  readonly mcp?: { readonly server: string; readonly annotations: Readonly<Record<string, unknown>> };
}

/** What {@link ApprovalPolicy} is given for one server call. */
export interface ApprovalPolicyContext {
  readonly tool: PolicyTool;
  /** The call's input, validated against the tool's schema. */
  readonly input: unknown;
  readonly toolCallId: string;
  readonly threadId: string;
  readonly runId: string;
  /** The user the app named for this request (`userOf`), if any. */
  readonly user: string | undefined;
  /** The HTTP request of this run (`createChatHandler`), for the app's own context (headers, cookies). */
  readonly request: Request | undefined;
  /** The conversation so far. */
  readonly messages: readonly Message[];
  /** Aborted when the policy runs out of time (`approvalPolicyTimeoutMs`). */
  readonly signal: AbortSignal;
}

/**
 * A policy's answer: `approve` runs the call without asking; `deny` declines it (the model reads
 * `reason`); `ask` asks the user (`message` is the prompt). `undefined`: no opinion, the next rule
 * decides (the handler-wide policy after a tool's, then the tool's `needsApproval`).
 */
export type ApprovalVerdict =
  | { readonly decision: 'approve' }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly message?: string }
  | undefined;

/** Decides server calls before anyone is asked (see {@link ApprovalVerdict}). A throw or a timeout asks. */
export type ApprovalPolicy = (context: ApprovalPolicyContext) => ApprovalVerdict | Promise<ApprovalVerdict>;

/** How long a policy may take before the call asks instead. */
export const DEFAULT_POLICY_TIMEOUT_MS = 5_000;

/** The longest reason or message a policy's answer keeps (the model reads the one, the user the other). */
const MAX_TEXT = 1_000;

/** What the policies decided for one call, and who: `undefined` when none had an opinion. */
export type PolicyOutcome =
  | { readonly decision: 'approve' }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly message?: string; readonly failure?: string }
  | undefined;

/** The facts a policy sees about a registered tool. */
export function policyTool(tool: RegisteredTool, needsApproval: boolean): PolicyTool {
  const facts = approvalFactsOf(tool.definition);
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    lazy: tool.lazy,
    needsApproval,
    ...(facts?.server === undefined ? {} : { mcp: { server: facts.server, annotations: facts.annotations ?? {} } }),
  };
}

/**
 * Runs the tool's policy, then the handler-wide one (when the first had no opinion). A policy that
 * throws, answers something that is no verdict, or runs past `timeoutMs` asks the user, with why.
 */
export async function decideByPolicy(
  policies: readonly (ApprovalPolicy | undefined)[],
  context: Omit<ApprovalPolicyContext, 'signal'>,
  timeoutMs: number,
): Promise<PolicyOutcome> {
  for (const policy of policies) {
    if (!policy) continue;
    const outcome = await runPolicy(policy, context, timeoutMs);
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

async function runPolicy(
  policy: ApprovalPolicy,
  context: Omit<ApprovalPolicyContext, 'signal'>,
  timeoutMs: number,
): Promise<PolicyOutcome> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let verdict: unknown;
  try {
    verdict = await Promise.race([Promise.resolve().then(() => policy({ ...context, signal: abort.signal })), timedOut]);
  } catch (error) {
    return { decision: 'ask', failure: `the approval policy failed (${describeError(error).slice(0, 200)})` };
  } finally {
    clearTimeout(timer);
  }
  if (verdict === 'timeout') {
    abort.abort(new Error(`The approval policy took longer than ${timeoutMs} ms.`));
    return { decision: 'ask', failure: `the approval policy did not answer within ${timeoutMs} ms` };
  }
  return readVerdict(verdict);
}

/** Reads a policy's answer; anything that is not one asks. */
function readVerdict(verdict: unknown): PolicyOutcome {
  if (verdict === undefined || verdict === null) return undefined;
  const { decision, reason, message } = verdict as Record<string, unknown>;
  if (decision === 'approve') return { decision };
  if (decision === 'deny') {
    const text =
      typeof reason === 'string' && reason.trim() !== '' ? reason.slice(0, MAX_TEXT) : 'The server policy does not allow this call.';
    return { decision, reason: text };
  }
  if (decision === 'ask')
    return typeof message === 'string' && message.trim() !== '' ? { decision, message: message.slice(0, MAX_TEXT) } : { decision };
  return { decision: 'ask', failure: 'the approval policy answered something that is not a verdict' };
}
