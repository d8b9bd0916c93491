import type { ChatMessage, ModelCallUsage, TurnRecord } from '@chatwire/core';
import { codeExecutionOf, readCodeModeUsage, type CodeExecution, type CodeModeUsage } from '@chatwire/code-mode/client';

/** Where a Code Mode API stands in the selected model call. */
export type CodeModeApiStatus = 'eager' | 'discovered' | 'undiscovered';

/** One row of the Code Mode view: an API the code can call. */
export interface CodeModeApiRow {
  /** The tool's name (the code calls `external_<name>`). */
  readonly name: string;
  readonly status: CodeModeApiStatus;
  /** The turn and model call (1-based) first sent its signature, for a discovered API. */
  readonly discoveredIn: { readonly turn: number; readonly modelCall: number } | undefined;
  /** Calls the selected turn's code made to it. */
  readonly callsInTurn: number;
}

/** Code Mode tokens summed over model calls. */
export interface CodeModeSavings {
  readonly calls: number;
  readonly sent: number;
  readonly allEager: number;
  readonly saved: number;
  readonly discoveryRoundTrips: number;
  /** `saved - discoveryRoundTrips`. */
  readonly net: number;
}

/** One execution of the selected turn. */
export interface ExecutionRow {
  readonly toolCallId: string;
  readonly state: CodeExecution['state'] | 'stopped';
  readonly nestedCalls: number;
  readonly failedCalls: number;
  readonly logLines: number;
  readonly durationMs: number | undefined;
}

/** Everything the Code Mode view shows for a turn and one of its model calls. */
export interface CodeModeView {
  readonly rows: readonly CodeModeApiRow[];
  /** The selected model call's share, when it was sent `execute_typescript`. */
  readonly call: CodeModeUsage | undefined;
  readonly turn: CodeModeSavings;
  readonly conversation: CodeModeSavings;
  readonly executions: readonly ExecutionRow[];
}

function sum(shares: readonly CodeModeUsage[]): CodeModeSavings {
  const total = (pick: (share: CodeModeUsage) => number) => shares.reduce((value, share) => value + pick(share), 0);
  return {
    calls: shares.length,
    sent: total((share) => share.tokens.sent),
    allEager: total((share) => share.tokens.allEager),
    saved: total((share) => share.tokens.saved),
    discoveryRoundTrips: total((share) => share.tokens.discoveryRoundTrips),
    net: total((share) => share.tokens.net),
  };
}

const sharesOf = (record: TurnRecord | undefined): CodeModeUsage[] =>
  (record?.modelCalls ?? []).flatMap((call) => {
    const share = readCodeModeUsage(call);
    return share ? [share] : [];
  });

/** Whether any model call of these turns has Code Mode's share. */
export const hasCodeMode = (turns: readonly TurnRecord[]): boolean =>
  turns.some((turn) => turn.modelCalls.some((call: ModelCallUsage) => readCodeModeUsage(call) !== undefined));

/** The assistant messages answering the turn that user message `id` started. */
function turnMessages(messages: readonly ChatMessage[], id: string): ChatMessage[] {
  const start = messages.findIndex((message) => message.id === id);
  if (start < 0) return [];
  const answer: ChatMessage[] = [];
  for (const message of messages.slice(start + 1)) {
    if (message.role === 'user') break;
    if (message.role === 'assistant') answer.push(message);
  }
  return answer;
}

/**
 * The Code Mode view: every API the selected model call's accounting names, with its status as of
 * that call (defaults to the turn's last) and where it was discovered; the turn's executions; the
 * savings of the call, the turn and the conversation. `undefined` when no record has Code Mode.
 */
export function buildCodeModeView(options: {
  readonly turns: readonly TurnRecord[];
  readonly messages: readonly ChatMessage[];
  /** 1-based; defaults to the latest. */
  readonly turn?: number;
  /** 0-based model call of the turn; defaults to its last. */
  readonly call?: number;
}): CodeModeView | undefined {
  if (!hasCodeMode(options.turns)) return undefined;
  const turnNumber = options.turn ?? options.turns.length;
  const record = options.turns[turnNumber - 1];
  const modelCalls = record?.modelCalls ?? [];
  const selectedCall = modelCalls[options.call ?? modelCalls.length - 1];
  const selected = selectedCall ? readCodeModeUsage(selectedCall) : undefined;
  // The latest share at or before the selected call says what the APIs were then (a call without Code Mode says nothing).
  let latest: CodeModeUsage | undefined;
  for (const [index, call] of modelCalls.entries())
    if (index <= (options.call ?? modelCalls.length - 1)) latest = readCodeModeUsage(call) ?? latest;
  if (!latest) {
    for (let index = turnNumber - 2; index >= 0 && !latest; index--) latest = sharesOf(options.turns[index]).at(-1);
  }

  const firstDiscovered = new Map<string, { turn: number; modelCall: number }>();
  options.turns.forEach((turnRecord, turnIndex) => {
    turnRecord.modelCalls.forEach((call, callIndex) => {
      for (const name of readCodeModeUsage(call)?.apis.discovered ?? [])
        if (!firstDiscovered.has(name)) firstDiscovered.set(name, { turn: turnIndex + 1, modelCall: callIndex + 1 });
    });
  });

  const executions: ExecutionRow[] = [];
  const callsPerApi = new Map<string, number>();
  for (const message of record ? turnMessages(options.messages, record.id) : []) {
    for (const part of message.parts) {
      const execution = part.type === 'tool-call' ? codeExecutionOf(part) : undefined;
      if (part.type !== 'tool-call' || !execution) continue;
      for (const nested of execution.calls) callsPerApi.set(nested.toolName, (callsPerApi.get(nested.toolName) ?? 0) + 1);
      const stopped =
        execution.state === 'running' && (part.state === 'cancelled' || part.state === 'output-error' || part.state === 'output-available');
      executions.push({
        toolCallId: part.toolCallId,
        state: stopped ? 'stopped' : execution.state,
        nestedCalls: execution.calls.length,
        failedCalls: execution.calls.filter((nested) => nested.state === 'output-error').length,
        logLines: execution.logs.length,
        durationMs: execution.durationMs,
      });
    }
  }

  const apis = latest?.apis ?? { eager: [], discovered: [], undiscovered: [], newlyDiscovered: [] };
  const row = (name: string, status: CodeModeApiStatus): CodeModeApiRow => ({
    name,
    status,
    discoveredIn: status === 'discovered' ? firstDiscovered.get(name) : undefined,
    callsInTurn: callsPerApi.get(name) ?? 0,
  });
  return {
    rows: [
      ...apis.eager.map((name) => row(name, 'eager')),
      ...apis.discovered.map((name) => row(name, 'discovered')),
      ...apis.undiscovered.map((name) => row(name, 'undiscovered')),
    ],
    call: selected,
    turn: sum(sharesOf(record)),
    conversation: sum(options.turns.flatMap(sharesOf)),
    executions,
  };
}
