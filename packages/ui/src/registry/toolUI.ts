import type { ReactNode } from 'react';
import type { ToolCallPart, ToolDefinition } from '@chatwire/core';
import type { ToolCallStatus } from '../vocabulary.js';

/** What a tool's renderer receives. */
export interface ToolUIProps<Input = unknown, Output = unknown> {
  /** The call, as the chat holds it. */
  readonly part: ToolCallPart<string, Input, Output>;
  /** The complete arguments; while they stream, the best reading so far (may be partial). */
  readonly input: Partial<Input> | undefined;
  /** The output, once the call is done; undefined before. */
  readonly output: Output | undefined;
  /** Where the call stands, with a readable label. */
  readonly status: ToolCallStatus;
  /** Answers the call's approval (present while it waits for one). */
  readonly respond: ((approved: boolean) => void) | undefined;
}

/** How a tool's part renders: inside the standard card (default) or instead of it. */
export interface ToolUI<Name extends string = string, Input = unknown, Output = unknown> {
  readonly toolName: Name;
  readonly render: (props: ToolUIProps<Input, Output>) => ReactNode;
  /**
   * `body` (default): the standard card keeps its title, state label, arguments, approval prompt and
   * folded JSON, and `render` replaces the generic list of output fields once the call is done.
   * `card`: `render` draws the whole part in every state.
   */
  readonly placement: 'body' | 'card';
}

/** Options of {@link makeToolUI}. */
export interface ToolUIOptions {
  /** Where the renderer draws. Defaults to `body`. */
  placement?: 'body' | 'card';
}

/**
 * A renderer for one tool's calls, typed by the tool's definition: `input` and `output` have the
 * types of its schemas. Pass a name instead of a definition for tools defined elsewhere (then give
 * the types as type arguments).
 *
 * @example
 * ```tsx
 * const weatherUI = makeToolUI(getWeather, ({ output }) => <p>{`${output?.celsius} °C in ${output?.city}`}</p>);
 * <MessageList messages={chat.messages} tools={[weatherUI]} />
 * ```
 */
export function makeToolUI<Name extends string, Input, Output>(
  tool: ToolDefinition<Name, Input, Output>,
  render: (props: ToolUIProps<Input, Output>) => ReactNode,
  options?: ToolUIOptions,
): ToolUI<Name, Input, Output>;
export function makeToolUI<Input = unknown, Output = unknown, Name extends string = string>(
  toolName: Name,
  render: (props: ToolUIProps<Input, Output>) => ReactNode,
  options?: ToolUIOptions,
): ToolUI<Name, Input, Output>;
export function makeToolUI(tool: ToolDefinition | string, render: (props: ToolUIProps) => ReactNode, options: ToolUIOptions = {}): ToolUI {
  const toolName = typeof tool === 'string' ? tool : tool.name;
  if (typeof toolName !== 'string' || toolName === '') throw new TypeError('makeToolUI needs a tool definition or a non-empty tool name.');
  return { toolName, render, placement: options.placement ?? 'body' };
}

/** Renderers by tool name. */
export type ToolUIRegistry = ReadonlyMap<string, ToolUI>;

// Any renderer, whatever its tool's types (the registry is looked up by name at run time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyToolUI = ToolUI<string, any, any>;

/**
 * Renderers by tool name, from a list of {@link makeToolUI} results. Two renderers for one tool
 * are a mistake, reported at once rather than one silently winning.
 */
export function createToolUIRegistry(renderers: readonly AnyToolUI[]): ToolUIRegistry {
  const registry = new Map<string, ToolUI>();
  for (const renderer of renderers) {
    if (registry.has(renderer.toolName)) throw new Error(`Two renderers for the tool "${renderer.toolName}": pass one per tool.`);
    registry.set(renderer.toolName, renderer as ToolUI);
  }
  return registry;
}
