import type { Message } from '@ag-ui/core';
import type { ErrorReporter } from '../errors/errorReport.js';
import type { CallSigner } from '../binding/signing.js';
import type { ApprovalPolicy } from '../approvals/approvalPolicy.js';
import type { GrantLifetimes } from '../approvals/grants.js';
import type { GrantStore, ServerStore } from '../store/serverStore.js';
import type { RunTools } from './runTools.js';

/** What every part of one run shares: its ids, the signer and store, its tools, and the working history. */
export interface RunContext {
  readonly threadId: string;
  readonly runId: string;
  readonly signer: CallSigner;
  readonly store: ServerStore;
  readonly approvalTtlMs: number;
  /** How long an input request waits for its answer, unless it names its own time. */
  readonly inputRequestTimeoutMs: number;
  readonly onError: ErrorReporter | undefined;
  /** The run's own signal: aborted when the caller's is, and when the run ends. */
  readonly signal: AbortSignal;
  readonly tools: RunTools;
  /** The run's history as it stands: the loop adds what each step returns (see `historyAdditions.ts`); no step changes it. */
  readonly history: readonly Message[];
  /** How server calls are approved: policies, grants, and who the user is. */
  readonly approvals: RunApprovals;
}

/** The approval settings of one run (from `ChatOptions`). */
export interface RunApprovals {
  readonly policies: (toolName: string) => readonly (ApprovalPolicy | undefined)[];
  readonly policyTimeoutMs: number;
  /** Where grants live; `undefined` when grants are off or the store keeps none. */
  readonly grants: GrantStore | undefined;
  /** How long new grants last, by scope. */
  readonly grantLifetimes: GrantLifetimes;
  readonly neverGrantable: readonly string[];
  readonly user: string | undefined;
  readonly request: Request | undefined;
}
