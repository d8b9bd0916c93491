import type { Message } from '@ag-ui/core';
import type { ErrorReporter } from '../errors/errorReport.js';
import type { CallSigner } from '../signing.js';
import type { ServerStore } from '../store/serverStore.js';
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
  /** The working history; model steps and results append to it. */
  readonly history: Message[];
}
