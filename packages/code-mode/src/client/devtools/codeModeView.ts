import type { ChatMessage, ModelCallUsage, TurnRecord } from '@chatwire/core';
import { netWords, type DevtoolsBlock, type DevtoolsCard, type DevtoolsViewInput, type DevtoolsViewModule } from '@chatwire/core/shared';
import type { CodeExecution } from '../codeExecution.js';
import { codeExecutionOf } from '../codeModeEvents.js';
import type { CodeModeUsage } from '../codeModeProtocol.js';
import { readCodeModeUsage } from '../readCodeModeUsage.js';

/*
 * Code Mode's view in the devtools panel (loaded by the panel through codeModeDevtoolsView): the view
 * model, built from the snapshot alone, and the blocks the panel renders as text.
 */

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
const hasCodeMode = (turns: readonly TurnRecord[]): boolean =>
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

const format = (value: number | undefined) => (value === undefined ? '–' : value.toLocaleString('en-US'));
const shareOfAll = (savings: CodeModeSavings) =>
  savings.allEager > 0 ? `${Math.abs((savings.net / savings.allEager) * 100).toFixed(1)}% of all up front` : 'nothing sent yet';
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A savings card: net tokens saved (or the cost, when discovery cost more: never "saved -N") and its share. */
const savingsCard = (label: string, savings: CodeModeSavings, testId: string): DevtoolsCard => ({
  label,
  value: netWords(savings.net).phrase,
  note: `${shareOfAll(savings)} · ${plural(savings.calls, 'model call')}`,
  tone: netWords(savings.net).tone,
  testId,
  data: { net: savings.net },
});

const STATUS_TONE = { eager: undefined, discovered: 'good', undiscovered: 'muted' } as const;

/**
 * Code Mode in the selected turn, as the panel's blocks: the APIs the code can call, eager, discovered or
 * still undiscovered (as of the model call picked in the view, defaults to the turn's last), where each was
 * discovered, the executions, and what keeping lazy tools out of the prompt saved.
 */
export function renderCodeModeView(input: DevtoolsViewInput): readonly DevtoolsBlock[] {
  const callCount = input.turns[input.turn - 1]?.modelCalls.length ?? 0;
  const picked = Number(input.choices['call']);
  const call = Number.isInteger(picked) && picked >= 0 && picked < callCount ? picked : Math.max(0, callCount - 1);
  const view = buildCodeModeView({ turns: input.turns, messages: input.messages, turn: input.turn, call });
  if (!view) return [{ type: 'empty', text: 'No Code Mode in this chat yet.' }];
  const count = (status: CodeModeApiStatus) => view.rows.filter((row) => row.status === status).length;
  const tokens = view.call?.tokens;
  const blocks: DevtoolsBlock[] = [
    {
      type: 'chips',
      label: 'Code Mode APIs',
      chips: [
        { text: `${count('eager')} eager`, testId: 'code-count-eager' },
        { text: `${count('discovered')} discovered`, testId: 'code-count-discovered' },
        { text: `${count('undiscovered')} not discovered yet`, testId: 'code-count-undiscovered' },
        { text: `${plural(view.executions.length, 'execution')} this turn`, testId: 'code-count-executions' },
      ],
    },
    {
      type: 'choice',
      key: 'call',
      label: 'Code Mode model call',
      value: String(call),
      options:
        callCount === 0
          ? [{ value: '0', label: 'no model call yet' }]
          : Array.from({ length: callCount }, (_, index) => ({ value: String(index), label: `Model call ${index + 1}` })),
    },
    {
      type: 'cards',
      cards: [
        savingsCard('Net tokens, lazy tools (turn)', view.turn, 'code-savings-turn'),
        savingsCard('Net tokens, lazy tools (conversation)', view.conversation, 'code-savings-conversation'),
        {
          label: `Model call ${callCount === 0 ? '–' : call + 1}: prompt + definitions sent`,
          value: format(tokens?.sent),
          note: tokens
            ? `all up front ${format(tokens.allEager)} · discovery ${format(tokens.discoveryRoundTrips)} · code ${format(tokens.code)} · results ${format(tokens.results)}`
            : 'not sent execute_typescript',
          testId: 'code-call-tokens',
        },
      ],
    },
    {
      type: 'table',
      label: 'Code Mode APIs',
      columns: [
        { title: 'API' },
        { title: 'Status', hint: 'As of the selected model call' },
        { title: 'Discovered in', hint: 'The turn, and the first model call sent its signature' },
        { title: 'Calls this turn', hint: 'Calls the code of this turn made to it', numeric: true },
      ],
      rows: view.rows.map((row) => ({
        testId: 'code-api-row',
        data: { api: row.name, status: row.status },
        cells: [
          { text: `external_${row.name}`, tone: 'code' },
          { text: row.status, ...(STATUS_TONE[row.status] ? { tone: STATUS_TONE[row.status] } : {}) },
          row.discoveredIn ? `turn ${row.discoveredIn.turn}, model call ${row.discoveredIn.modelCall}` : '',
          row.callsInTurn ? String(row.callsInTurn) : '',
        ],
      })),
    },
  ];
  if (view.executions.length > 0) {
    blocks.push({
      type: 'table',
      label: 'Code Mode executions',
      heading: 'Executions this turn',
      columns: [
        { title: 'Call' },
        { title: 'State' },
        { title: 'Nested calls', numeric: true },
        { title: 'Failed', numeric: true },
        { title: 'Log lines', numeric: true },
        { title: 'ms', numeric: true },
      ],
      rows: view.executions.map((execution) => ({
        testId: 'code-execution-row',
        data: { state: execution.state },
        cells: [
          { text: execution.toolCallId, tone: 'code' },
          execution.state,
          String(execution.nestedCalls),
          String(execution.failedCalls),
          String(execution.logLines),
          format(execution.durationMs),
        ],
      })),
    });
  }
  blocks.push({
    type: 'note',
    text:
      'In Code Mode, lazy tools are listed by name in the system prompt until discovery (discover_tools) returns their TypeScript ' +
      "signatures. Saved counts the stubs kept out of the prompt (and discover_tools' own definition against it); net also subtracts " +
      'the discovery calls and results carried in the history. Code and results are what executions add to every later model call.',
  });
  return blocks;
}

/** What the panel loads for Code Mode's tab: shown once a model call was sent Code Mode. */
export const codeModeViewModule: DevtoolsViewModule = {
  available: ({ turns }) => hasCodeMode(turns),
  render: renderCodeModeView,
};
