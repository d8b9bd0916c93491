/** A tool as planning sees it. */
export interface PlannableTool {
  readonly name: string;
  readonly lazy: boolean;
}

/** What one model call receives, in the order it is sent. */
export interface ToolListPlan<Tool, DiscoveryTool> {
  /** Eager tools, then the discovery tool (while anything is left to discover), then discovered tools in discovery order. */
  readonly sent: readonly (Tool | DiscoveryTool)[];
  readonly discoveryTool: DiscoveryTool | undefined;
  /** Discovered lazy tools sent with this call, in discovery order. */
  readonly active: readonly Tool[];
  /** Lazy tools withheld from this call. */
  readonly deferred: readonly string[];
}

/**
 * The order of tools for one model call, for server-managed and client-managed discovery alike:
 * eager tools, then the discovery tool, then discovered tools appended in discovery order, so a
 * provider's prompt-cache prefix stays stable. The discovery tool's catalog lists every lazy tool
 * the request may see, discovered or not, so it does not change as tools get discovered.
 */
export function planToolList<Tool extends PlannableTool, DiscoveryTool>(options: {
  /** Every tool, in registration order. */
  readonly tools: readonly Tool[];
  /** Discovered names, in discovery order. */
  readonly discovered: readonly string[];
  /** Builds the discovery tool from the catalog it lists. */
  readonly discoveryTool: (catalog: readonly Tool[]) => DiscoveryTool;
  /** Whether a lazy tool appears in the catalog (policy phase `search`). Defaults to yes. */
  readonly inCatalog?: (name: string) => boolean;
  /** Whether a discovered tool is sent (policy phase `active`). Defaults to yes. */
  readonly isActive?: (name: string) => boolean;
}): ToolListPlan<Tool, DiscoveryTool> {
  const { tools, inCatalog = () => true, isActive = () => true } = options;
  const lazy = tools.filter((tool) => tool.lazy);
  const byName = new Map(lazy.map((tool) => [tool.name, tool]));
  const discovered = new Set(options.discovered.filter((name) => byName.has(name)));
  const active = [...discovered].filter(isActive).map((name) => byName.get(name) as Tool);
  const catalog = lazy.filter((tool) => inCatalog(tool.name));
  const discoveryTool = catalog.some((tool) => !discovered.has(tool.name)) ? options.discoveryTool(catalog) : undefined;
  return {
    sent: [...tools.filter((tool) => !tool.lazy), ...(discoveryTool === undefined ? [] : [discoveryTool]), ...active],
    discoveryTool,
    active,
    deferred: lazy.filter((tool) => !discovered.has(tool.name)).map((tool) => tool.name),
  };
}
