import { EventType, type Event, type ToolCall } from '@ag-ui/core';
import { APPROVAL_DECISION_EVENT, type ApprovalDecision, type GrantOption, type ServerTool } from '@chatwire/core';
import { canonicalArguments } from '../binding/canonicalArguments.js';
import { ChatRequestError } from '../errors/chatRequestError.js';
import type { ReviewedAnswer } from '../history/reviewHistory.js';
import type { ChatOptions } from '../run/chatOptions.js';
import type { RunApprovals, RunContext } from '../run/runContext.js';
import type { RunTools } from '../run/runTools.js';
import { storeOf } from '../run/chatOptions.js';
import type { RegisteredTool } from '../tools/toolRegistry.js';
import type { StoredGrant } from '../store/serverStore.js';
import { DEFAULT_POLICY_TIMEOUT_MS, decideByPolicy, policyTool } from '../approvals/approvalPolicy.js';
import { editedCall } from '../approvals/editedArgs.js';
import { threadOwner, userOwner } from '../store/grantOwners.js';
import { reportError } from '../errors/errorReport.js';
import {
  addGrant,
  coveringGrant,
  definitionVersion,
  grantLifetimesOf,
  grantStoreOf,
  grantView,
  verifiedGrants,
} from '../approvals/grants.js';

/** The approval settings of a run, from its options. */
export function runApprovalsOf(options: ChatOptions): RunApprovals {
  const perTool = options.toolApprovalPolicies ?? {};
  return {
    policies: (name) => [Object.hasOwn(perTool, name) ? perTool[name] : undefined, options.approvalPolicy],
    policyTimeoutMs: options.approvalPolicyTimeoutMs ?? DEFAULT_POLICY_TIMEOUT_MS,
    grants: grantStoreOf(options, storeOf(options)),
    grantLifetimes: grantLifetimesOf(options.grants),
    neverGrantable: (options.grants === false ? undefined : options.grants?.neverGrantable) ?? [],
    user: typeof options.user === 'string' && options.user !== '' ? options.user : undefined,
    // Read only when a policy is asked (the node adapter builds the Request on first use).
    get request() {
      return options.request;
    },
  };
}

/** The grant options offered with an approval of `toolName`: `always` needs a named user and a grantable tool. */
export function grantOptionsFor(approvals: RunApprovals, toolName: string): GrantOption[] {
  if (!approvals.grants) return ['once'];
  return approvals.user !== undefined && !approvals.neverGrantable.includes(toolName) ? ['once', 'thread', 'always'] : ['once', 'thread'];
}

/** What decides a server call before it runs. */
export type CallVerdict =
  | { readonly kind: 'run'; readonly decision?: ApprovalDecision }
  | { readonly kind: 'deny'; readonly reason: string; readonly decision: ApprovalDecision }
  | { readonly kind: 'ask'; readonly message?: string; readonly decision?: ApprovalDecision };

/** The version a grant of this tool is bound to, as it is now. */
function versionOf(context: RunContext, tool: RegisteredTool): string {
  return definitionVersion(tool, context.tools.discovery.fingerprint(tool.name));
}

/**
 * Decides a validated server call: the tool's policy, then the handler's, then the tool's
 * `needsApproval`; a call that would ask runs (or is declined) without asking when a grant covers it.
 */
export async function decideCall(
  context: RunContext,
  tool: RegisteredTool,
  call: ToolCall,
  input: unknown,
  needsApproval: boolean,
): Promise<CallVerdict> {
  const { approvals } = context;
  const base = { toolCallId: call.id, toolName: tool.name };
  const policies = approvals.policies(tool.name);
  const outcome = policies.some(Boolean)
    ? await decideByPolicy(
        policies,
        {
          tool: policyTool(tool, needsApproval),
          input,
          toolCallId: call.id,
          threadId: context.threadId,
          runId: context.runId,
          user: approvals.user,
          request: approvals.request,
          messages: context.history,
        },
        approvals.policyTimeoutMs,
      )
    : undefined;
  if (outcome?.decision === 'approve') return { kind: 'run', decision: { ...base, by: 'policy', decision: 'approve' } };
  if (outcome?.decision === 'deny')
    return { kind: 'deny', reason: outcome.reason, decision: { ...base, by: 'policy', decision: 'deny', reason: outcome.reason } };
  if (outcome === undefined && !needsApproval) return { kind: 'run' };
  // It would ask: the user may have answered already, for this chat or always.
  const grant = await findGrant(context, tool, call);
  if (grant) {
    const view = grantView(grant);
    if (grant.effect === 'allow') return { kind: 'run', decision: { ...base, by: 'grant', decision: 'approve', grant: view } };
    const reason = `The user declined '${tool.name}' for this chat.`;
    return { kind: 'deny', reason, decision: { ...base, by: 'grant', decision: 'deny', reason, grant: view } };
  }
  if (outcome === undefined) return { kind: 'ask' };
  return {
    kind: 'ask',
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    decision: { ...base, by: 'policy', decision: 'ask', ...(outcome.failure === undefined ? {} : { reason: outcome.failure }) },
  };
}

async function findGrant(context: RunContext, tool: RegisteredTool, call: ToolCall): Promise<StoredGrant | undefined> {
  const { grants, user } = context.approvals;
  if (!grants) return undefined;
  // The chat's grants are the ones this user made in it: another user's, under the same thread id, are not looked at.
  const owners = [threadOwner(context.threadId, user), ...(user === undefined ? [] : [userOwner(user)])];
  const found = await verifiedGrants(grants, context.signer, owners);
  if (found.length === 0) return undefined;
  const canonical = canonicalArguments(call.function.arguments);
  return coveringGrant(found, tool.name, versionOf(context, tool), canonical.ok ? canonical.text : undefined);
}

/** `chatwire.approval_decision`. */
export function decisionEvent(decision: ApprovalDecision): Event {
  return { type: EventType.CUSTOM, name: APPROVAL_DECISION_EVENT, value: decision };
}

/**
 * Checks what an approval's payload asks for besides yes or no, before any approval is used:
 * `editedArgs` (validated against the tool's schema) and `grant` (offered for this tool and user).
 */
export function answerReviewer(
  tools: RunTools,
  options: ChatOptions,
): (call: ToolCall, payload: Readonly<Record<string, unknown>>, approved: boolean) => Promise<ReviewedAnswer | undefined> {
  const approvals = runApprovalsOf(options);
  return async (call, payload, approved) => {
    const name = call.function.name;
    let edited: ReviewedAnswer['edited'];
    if (approved && payload['editedArgs'] !== undefined) {
      const tool = tools.registry.get(name)?.server as ServerTool<string, unknown, unknown> | undefined;
      if (!tool) throw new ChatRequestError('invalid-edited-args', `'${name}' is not a server tool: its arguments cannot be edited here.`);
      const checked = await editedCall(tool, call, payload['editedArgs']);
      if (!checked.ok)
        throw new ChatRequestError(
          'invalid-edited-args',
          `The edited arguments of '${name}' (call ${call.id}) are refused: ${checked.error}. Nothing ran.`,
        );
      edited = { call: checked.call, input: checked.input };
    }
    const asked = payload['grant'];
    let grant: ReviewedAnswer['grant'];
    if (asked !== undefined && asked !== 'once') {
      if (asked !== 'thread' && asked !== 'always')
        throw new ChatRequestError(
          'invalid-grant',
          `An approval's grant is 'once', 'thread' or 'always' (got ${JSON.stringify(asked).slice(0, 40)}).`,
        );
      const offered = grantOptionsFor(approvals, name);
      if (!offered.includes(asked) || (asked === 'always' && !approved)) {
        throw new ChatRequestError('grant-refused', grantRefusal(approvals, name, asked, approved));
      }
      grant = { scope: asked, arguments: payload['grantArguments'] === true };
    }
    return edited || grant ? { ...(edited ? { edited } : {}), ...(grant ? { grant } : {}) } : undefined;
  };
}

function grantRefusal(approvals: RunApprovals, name: string, asked: 'thread' | 'always', approved: boolean): string {
  if (!approvals.grants) return `This server keeps no grants (grants are off, or its store has none): answer '${name}' for this call only.`;
  if (asked === 'always' && !approved) return `"Always" is for approvals; a denial can be remembered for this chat ('thread').`;
  if (approvals.neverGrantable.includes(name))
    return `'${name}' is never granted "always": the server asks for it every time (allow it once, or for this chat).`;
  return `"Always allow" needs a user the server names (createChatHandler's userOf); this request has none.`;
}

/** Stores the grant an answer asked for and says so in the stream; a store failure reaches the model as no grant, never as a lost answer. */
export async function grantFromAnswer(
  context: RunContext,
  call: ToolCall,
  answer: ReviewedAnswer | undefined,
  approved: boolean,
): Promise<ApprovalDecision> {
  const tool = context.tools.registry.get(call.function.name);
  const base: ApprovalDecision = {
    toolCallId: call.id,
    toolName: call.function.name,
    by: 'user',
    decision: approved ? 'approve' : 'deny',
    ...(answer?.edited ? { editedArguments: answer.edited.call.function.arguments } : {}),
  };
  const { grants, user } = context.approvals;
  if (!answer?.grant || !grants || !tool) return base;
  const scope = answer.grant.scope;
  const owner = scope === 'thread' ? threadOwner(context.threadId, user) : userOwner(user as string);
  const source = answer.edited?.call ?? call;
  const canonical = canonicalArguments(source.function.arguments);
  let made: Awaited<ReturnType<typeof addGrant>>;
  try {
    made = await addGrant(
      grants,
      context.signer,
      {
        owner,
        ...(user === undefined ? {} : { user }),
        ...(scope === 'thread' ? { threadId: context.threadId } : {}),
        toolName: tool.name,
        effect: approved ? 'allow' : 'deny',
        scope,
        version: versionOf(context, tool),
        ...(answer.grant.arguments && canonical.ok ? { arguments: canonical.text } : {}),
      },
      context.approvals.grantLifetimes,
    );
  } catch (error) {
    // The answer stands (the call runs or is declined as the user said); only the standing answer is lost, and said so.
    const ref = reportError(context.onError, { kind: 'run', error, threadId: context.threadId, runId: context.runId });
    return { ...base, reason: `No grant was stored: the grant store failed (ref ${ref}).` };
  }
  if (typeof made === 'string') return { ...base, reason: `No grant was stored: ${made}.` };
  return { ...base, grant: grantView(made) };
}
