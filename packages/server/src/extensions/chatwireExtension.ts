import type { Message } from '@ag-ui/core';
import type { AnyTool } from '@chatwire/core';
import type { ToolTokenCounter } from '../model/chatModel.js';

/**
 * The Chatwire namespaces a server package can own, each with its event prefix. Chatwire's own
 * events (`chatwire.tool_executing`, `chatwire.model_call_usage`) are in none: only the agent loop
 * emits them.
 */
export const NAMESPACES = {
  // @chatwire/code-mode's CODE_MODE_EVENT_PREFIX (its stream test fails if the two ever differ).
  codeMode: 'chatwire.code_mode.',
  mcp: 'chatwire.mcp.',
} as const;

/** A namespace {@link extendTools} can grant: `codeMode` (`chatwire.code_mode.*`), `mcp` (`chatwire.mcp.*`). */
export type ChatwireNamespace = keyof typeof NAMESPACES;

/** What an extension's accounting hook receives for one model call. */
export interface ExtensionUsageInput {
  /** The history as the model is sent it. */
  readonly messages: readonly Message[];
  /** The system prompt as sent. */
  readonly system: string | undefined;
  /** Names of the tools sent with this call. */
  readonly toolsSent: readonly string[];
  /** The model adapter's tool-definition counter (cached), as the loop's own accounting uses. */
  readonly counter: ToolTokenCounter;
}

/**
 * A tool's part in MCP Apps (the `io.modelcontextprotocol/ui` extension): the server it comes from,
 * its name there, who may call it, and its app, if it has one.
 */
export interface ToolApp {
  /** The tool source (an MCP server's name): an app calls only tools of its own server. */
  readonly server: string;
  /** The tool's name as that server lists it (what an app calls it by). */
  readonly name: string;
  /** Who may call it: `model` (sent to the model, listed by discovery), `app` (callable by its server's apps). */
  readonly visibility: readonly ('model' | 'app')[];
  /** The `ui://` resource of its app, when it has one. */
  readonly resourceUri?: string;
  /**
   * The app for one call of the tool, as the `chatwire.mcp.app` data part carries it (without the
   * call id), read when the model starts the call; `undefined` when there is none to show.
   */
  readonly view?: (signal: AbortSignal) => Promise<Readonly<Record<string, unknown>> | undefined>;
}

/** What a trusted server package attaches to the tools it makes (see {@link extendTools}). */
export interface ChatwireExtension<Namespace extends ChatwireNamespace = ChatwireNamespace> {
  /** Its namespace: its tools' `emit` may send `chatwire.<namespace>.*` events (and no other `chatwire.` name). */
  readonly namespace: Namespace;
  /**
   * Its share of each model call's accounting, under the `chatwire.model_call_usage` field named
   * after the namespace; called when one of its tools is sent with the call. Defaults to none.
   */
  readonly usage?: (call: ExtensionUsageInput) => object | undefined;
  /**
   * Drift tracking: a short fingerprint of a lazy tool's definition as it is now. Discovery records
   * it (in the discovery result, or the marker of a call that loaded the tool); a tool whose
   * fingerprint changed since the conversation last discovered it counts as undiscovered, so the
   * model must discover it again. Defaults to none (no drift tracking).
   */
  readonly fingerprint?: (tool: AnyTool) => string | undefined;
  /**
   * What an approval policy is told about a tool besides its definition: the MCP server it comes
   * from and the annotations that server declared. Defaults to none.
   */
  readonly approvalFacts?: (
    tool: AnyTool,
  ) => { readonly server?: string; readonly annotations?: Readonly<Record<string, unknown>> } | undefined;
  /**
   * MCP Apps: the tool's server, its name there, who may call it and its app (see {@link ToolApp}).
   * Defaults to none (no app, callable by the model only).
   */
  readonly app?: (tool: AnyTool) => ToolApp | undefined;
}

const granted = new WeakMap<object, ChatwireExtension>();

/**
 * Grants `tools` an extension: their `ToolContext.emit` may send CUSTOM events in its Chatwire
 * namespace (which a tool's `emit` otherwise refuses, so no tool can forge Chatwire's protocol), and
 * its `usage` hook adds its figures to every model call they are sent with. The grant is bound to
 * these tool objects (a copy or a look-alike has none), and no namespace covers Chatwire's own
 * events. For server packages such as `@chatwire/code-mode`; apps emit their own names instead.
 *
 * @example
 * ```ts
 * const [tool] = extendTools({ namespace: 'codeMode', usage: (call) => myUsage(call) }, [executeTool]);
 * ```
 */
export function extendTools<Tools extends readonly AnyTool[], Namespace extends ChatwireNamespace>(
  extension: ChatwireExtension<Namespace>,
  tools: Tools,
): Tools {
  if (!Object.hasOwn(NAMESPACES, extension.namespace)) {
    throw new TypeError(`extendTools: unknown namespace '${String(extension.namespace)}' (known: ${Object.keys(NAMESPACES).join(', ')}).`);
  }
  const frozen = Object.freeze({ ...extension }) as ChatwireExtension;
  for (const tool of tools) {
    if (tool.kind !== 'server')
      throw new TypeError(`extendTools: '${tool.name}' is not a server tool; only tools that run in the agent loop emit events.`);
    granted.set(tool, frozen);
  }
  return tools;
}

/** The extension granted to this tool object, if any. */
export function extensionOf(tool: object): ChatwireExtension | undefined {
  return granted.get(tool);
}

/** The drift fingerprint of a tool whose extension tracks drift (see {@link ChatwireExtension.fingerprint}). */
export function fingerprintOf(tool: AnyTool | undefined): string | undefined {
  if (!tool) return undefined;
  try {
    return granted.get(tool)?.fingerprint?.(tool);
  } catch {
    return undefined;
  }
}

/** The approval facts of a tool whose extension gives them (see {@link ChatwireExtension.approvalFacts}). */
export function approvalFactsOf(tool: AnyTool | undefined): ReturnType<NonNullable<ChatwireExtension['approvalFacts']>> {
  if (!tool) return undefined;
  try {
    return granted.get(tool)?.approvalFacts?.(tool);
  } catch {
    return undefined;
  }
}

/** The MCP Apps facts of a tool whose extension gives them (see {@link ChatwireExtension.app}). */
export function toolAppOf(tool: AnyTool | undefined): ToolApp | undefined {
  if (!tool) return undefined;
  try {
    return granted.get(tool)?.app?.(tool);
  } catch {
    return undefined;
  }
}

/** The event-name prefix a tool may emit under besides its app names (`undefined`: none). */
export function eventPrefixOf(tool: object): string | undefined {
  const extension = granted.get(tool);
  return extension ? NAMESPACES[extension.namespace] : undefined;
}

/**
 * Each extension's share of one model call's accounting, by namespace: one call per distinct
 * extension among the tools sent (the first sent wins a namespace). A hook that throws adds nothing
 * (its failure goes to `report`) and never breaks the run.
 */
export function extensionUsage(
  sentTools: readonly (AnyTool | undefined)[],
  input: ExtensionUsageInput,
  report: (error: unknown) => void,
): Readonly<Partial<Record<ChatwireNamespace, object>>> {
  const shares: Record<string, unknown> = {};
  const seen = new Set<ChatwireExtension>();
  for (const tool of sentTools) {
    const extension = tool && granted.get(tool);
    if (!extension?.usage || seen.has(extension) || extension.namespace in shares) continue;
    seen.add(extension);
    try {
      const share = extension.usage(input);
      if (share !== undefined) shares[extension.namespace] = share;
    } catch (error) {
      report(error);
    }
  }
  return shares;
}
