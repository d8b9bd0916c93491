import { DISCOVERY_TOOL_NAME, TOOL_PROGRESS_EVENT, type MessagePart, type ToolCallPart, type ToolProgress } from '@chatwire/core';
import type { NestedToolCall } from '@chatwire/code-mode/client';
import { readDiscoveredNames } from '@chatwire/core/shared';

/**
 * The words the components use, in one place. Discovery has one vocabulary everywhere (components,
 * docs, devtools):
 * - a **lazy tool** is a tool kept out of the prompt until the model asks for it (in Code Mode, a
 *   lazy tool is listed by name as a TypeScript API);
 * - **discovery** is the step in which the model asks for lazy tools by name;
 * - a lazy tool is **discovered** once that step has answered: from the next model call on, the
 *   model is sent its definition (its signature, in Code Mode). Before that it is **not discovered yet**.
 */
export const DISCOVERY_WORDS = {
  kind: 'lazy tool',
  kindPlural: 'lazy tools',
  step: 'discovery',
  state: 'discovered',
  notYet: 'not discovered yet',
} as const;

/** Code Mode's discovery tool: it gives the model TypeScript signatures of lazy tools. */
export const CODE_MODE_DISCOVERY_TOOL_NAME = 'discover_tools';

/** Code Mode's execution tool: the model's TypeScript, run in a sandbox. */
export const CODE_MODE_EXECUTION_TOOL_NAME = 'execute_typescript';

/** Whether a tool call is a discovery step (Chatwire's own discovery tool, or Code Mode's). */
export function isDiscoveryCall(part: Pick<ToolCallPart, 'toolName'>): boolean {
  return part.toolName === DISCOVERY_TOOL_NAME || part.toolName === CODE_MODE_DISCOVERY_TOOL_NAME;
}

/**
 * How a call ended or where it stands, in the user's terms: a denial is the user's choice, a stop is
 * a stop. `waiting` means it waits for the user's approval.
 */
export type ToolCallOutcome =
  'pending' | 'waiting' | 'running' | 'done' | 'failed' | 'declined' | 'declined-moved-on' | 'stopped' | 'skipped';

/** A tool call's status as the components show it: its outcome and a readable label. */
export interface ToolCallStatus {
  readonly outcome: ToolCallOutcome;
  /** What a person reads, e.g. "Waiting for your approval" or "Done" (never a raw state name). */
  readonly label: string;
}

const LABELS: Record<ToolCallPart['state'], string> = {
  'awaiting-input': 'Preparing',
  'input-streaming': 'Preparing',
  'input-complete': 'Ready to run',
  'approval-requested': 'Waiting for your approval',
  'approval-responded': 'Answered',
  executing: 'Running',
  'output-available': 'Done',
  'output-error': 'Failed',
  cancelled: 'Cancelled',
};

/** The status of a tool call, read from its state, its approval and why it was cancelled. */
export function toolCallStatus(part: Pick<ToolCallPart, 'state' | 'approval' | 'cancelReason' | 'waitingFor'>): ToolCallStatus {
  const denied = part.approval?.approved === false || part.cancelReason === 'denied';
  if (denied) {
    return part.approval?.respondedBy === 'auto'
      ? { outcome: 'declined-moved-on', label: 'Declined (you sent a new message)' }
      : { outcome: 'declined', label: 'Declined' };
  }
  switch (part.state) {
    case 'cancelled':
      return part.cancelReason === 'aborted'
        ? { outcome: 'stopped', label: 'Stopped' }
        : { outcome: 'skipped', label: 'Skipped (you sent a new message)' };
    case 'output-error':
      return { outcome: 'failed', label: LABELS['output-error'] };
    case 'output-available':
      return { outcome: 'done', label: LABELS['output-available'] };
    case 'approval-requested':
      return { outcome: 'waiting', label: LABELS['approval-requested'] };
    case 'approval-responded':
      return { outcome: 'running', label: part.approval?.approved ? 'Approved, running next' : LABELS['approval-responded'] };
    case 'executing':
      return { outcome: 'running', label: LABELS.executing };
    case 'input-complete':
      return { outcome: 'pending', label: part.waitingFor === 'discovery' ? 'Waiting for discovery' : LABELS['input-complete'] };
    default:
      return { outcome: 'pending', label: LABELS[part.state] };
  }
}

const NESTED_LABELS: Record<NestedToolCall['state'], string> = {
  executing: 'Running',
  'output-available': 'Done',
  'output-error': 'Failed',
  cancelled: 'Stopped',
};

/** The label of a call made by Code Mode's code. */
export function nestedCallLabel(state: NestedToolCall['state']): string {
  return NESTED_LABELS[state];
}

/** The tool names a discovery call asked for: `{ toolNames }`, or a `select:a,b` search query. */
export function requestedToolNames(part: Pick<ToolCallPart, 'input' | 'partialInput'>): string[] {
  const input = (part.input ?? part.partialInput) as { toolNames?: unknown; query?: unknown } | undefined;
  if (Array.isArray(input?.toolNames)) return input.toolNames.filter((name): name is string => typeof name === 'string');
  if (typeof input?.query === 'string')
    return input.query.startsWith('select:')
      ? input.query
          .slice(7)
          .split(',')
          .map((name) => name.trim())
      : [input.query];
  return [];
}

/** What a discovery step says: its title, the tools it names, and whether they are discovered. */
export interface DiscoveryStatus {
  /** "Discovered addTodo", "Discovering addTodo…" or "Discovery failed: addTodo". */
  readonly title: string;
  readonly names: readonly string[];
  readonly phase: 'discovering' | 'discovered' | 'failed';
  /** Code Mode's discovery (lazy tools as TypeScript APIs). */
  readonly codeMode: boolean;
}

/** The status of a discovery call, in the discovery vocabulary. */
export function discoveryStatus(part: ToolCallPart): DiscoveryStatus {
  const codeMode = part.toolName === CODE_MODE_DISCOVERY_TOOL_NAME;
  const discovered = part.state === 'output-available' && part.result ? readDiscoveredNames(part.result.output ?? part.result.content) : [];
  const names = discovered.length > 0 ? discovered : requestedToolNames(part);
  const list = names.join(', ') || DISCOVERY_WORDS.kindPlural;
  if (part.state === 'output-available') return { title: `Discovered ${list}`, names, phase: 'discovered', codeMode };
  if (part.state === 'output-error' || part.state === 'cancelled')
    return { title: `Discovery failed: ${list}`, names, phase: 'failed', codeMode };
  return { title: `Discovering ${list}…`, names, phase: 'discovering', codeMode };
}

/** `rainChance` -> `Rain chance`: a field name as a label. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A file size as people read it: bytes, KB or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The latest progress of each running tool call of a message, by tool call id: its
 * `chatwire.mcp.tool_progress` data parts (core's `TOOL_PROGRESS_EVENT`, from MCP progress
 * notifications), read defensively (the client keeps them unchecked). Empty when there are none.
 */
export function toolProgressByCall(parts: readonly MessagePart[]): ReadonlyMap<string, ToolProgress> {
  const progress = new Map<string, ToolProgress>();
  for (const part of parts) {
    if (part.type !== 'data' || part.name !== TOOL_PROGRESS_EVENT) continue;
    const data = part.data as Partial<Record<keyof ToolProgress, unknown>> | null;
    if (
      !data ||
      typeof data !== 'object' ||
      typeof data.toolCallId !== 'string' ||
      typeof data.progress !== 'number' ||
      !Number.isFinite(data.progress)
    )
      continue;
    const total = typeof data.total === 'number' && Number.isFinite(data.total) && data.total > 0 ? data.total : undefined;
    progress.set(data.toolCallId, {
      toolCallId: data.toolCallId,
      progress: data.progress,
      ...(total === undefined ? {} : { total }),
      ...(typeof data.message === 'string' ? { message: data.message.slice(0, 500) } : {}),
      ...(typeof data.server === 'string' ? { server: data.server } : {}),
    });
  }
  return progress;
}

/** A running call's progress in words: `2 of 5 (40%) · Copying files`, `3 · Working`. */
export function progressLabel(progress: ToolProgress): string {
  const amount =
    progress.total === undefined
      ? `${progress.progress}`
      : `${progress.progress} of ${progress.total} (${Math.round(Math.min(1, Math.max(0, progress.progress / progress.total)) * 100)}%)`;
  return progress.message ? `${amount} · ${progress.message}` : amount;
}
