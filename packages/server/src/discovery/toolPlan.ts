import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import { nameDiscoveryTool, planToolList, searchDiscoveryTool, type AutoLoad } from '@chatwire/core/shared';
import type { ModelTool, ProviderToolChanges, ProviderToolSearch } from '../model/chatModel.js';
import { toModelTool, type RegisteredTool, type ToolRegistry } from '../tools/toolRegistry.js';
import type { DiscoveryOptions } from './discoveryOptions.js';
import type { DiscoveryPolicy } from './discoveryPolicy.js';
import { providerLoadedTools } from './providerToolSearch.js';

/** The tools one model call receives, and why. */
export interface ToolPlan {
  readonly tools: ModelTool[];
  readonly discoveryTool: ModelTool | undefined;
  readonly deferred: string[];
  readonly newlyDiscovered: string[];
  readonly auto: ModelCallUsage['auto'];
  /** Provider-native deferred loading: lazy tools sent deferred for the provider's search (after `tools` and its search tool). */
  readonly deferredTools?: ModelTool[];
  /** Provider-native deferred loading: the provider's search tool sent in place of the discovery tool. */
  readonly providerSearch?: ProviderToolSearch;
  /** Cache-preserving tool changes: `deferredTools` holds every lazy tool the model may discover, declared deferred by the adapter. */
  readonly toolChanges?: ProviderToolChanges;
}

/** What planning a model call's tools reads: the registry, the request's policy, and the run's discovery setup. */
export interface ToolPlanning {
  readonly registry: ToolRegistry;
  readonly lazy: readonly RegisteredTool[];
  readonly policy: DiscoveryPolicy;
  /** Whether any tool is withheld. */
  readonly deferring: boolean;
  readonly mode: 'name' | 'search';
  readonly auto: ModelCallUsage['auto'];
  readonly options: Pick<DiscoveryOptions, 'includeDescription' | 'groups' | 'groupAbove'> & { readonly autoLoad?: AutoLoad };
  /** Provider-native deferred loading: the model's own tool search, when its adapter offers one. */
  readonly toolSearch: ProviderToolSearch | undefined;
  /** Cache-preserving tool changes, when the model's adapter offers them (never with a provider's own search). */
  readonly toolChanges: ProviderToolChanges | undefined;
  readonly provider: string;
}

/** The tools for the next model call: eager, then the discovery tool, then discovered ones in discovery order. */
export async function planTools(planning: ToolPlanning, history: readonly Message[]): Promise<ToolPlan> {
  const { registry, policy, options } = planning;
  if (!planning.deferring) {
    const tools = registry.all().map(toModelTool);
    return { tools, discoveryTool: undefined, deferred: [], newlyDiscovered: [], auto: planning.auto };
  }
  if (planning.toolSearch) return planProviderSearch(planning, history, planning.toolSearch);
  const discovered = await policy.discovered(history);
  const inCatalog = new Set<string>();
  const active = new Set<string>();
  for (const tool of planning.lazy) {
    if (await policy.allows(tool.name, 'search')) inCatalog.add(tool.name);
    if (discovered.includes(tool.name) && (await policy.isActive(tool.name))) active.add(tool.name);
  }
  const detail = options.includeDescription ?? 'none';
  const searchOptions = {
    autoLoad: options.autoLoad ?? false,
    ...(options.groups ? { groups: options.groups } : {}),
    ...(options.groupAbove === undefined ? {} : { groupAbove: options.groupAbove }),
  };
  const plan = planToolListFor(
    registry.all(),
    discovered,
    (catalog) => (planning.mode === 'search' ? searchDiscoveryTool(catalog, detail, searchOptions) : nameDiscoveryTool(catalog, detail)),
    { inCatalog: (name) => inCatalog.has(name), isActive: (name) => active.has(name) },
  );
  const fresh = policy.newlyDiscovered(history);
  // Cache-preserving tool changes: every lazy tool the model may discover or has discovered, in catalog order, for the adapter to declare deferred.
  const changes = planning.toolChanges;
  const deferredTools = changes
    ? planning.lazy
        .filter(
          (tool) => active.has(tool.name) || (inCatalog.has(tool.name) && !discovered.includes(tool.name) && policy.accepts(tool.name)),
        )
        .map(toDeferredTool)
    : [];
  return {
    tools: plan.sent,
    discoveryTool: plan.discoveryTool,
    deferred: [...plan.deferred],
    newlyDiscovered: plan.active.map((tool) => tool.name).filter((name) => fresh.has(name)),
    auto: planning.auto,
    ...(changes && deferredTools.length ? { deferredTools, toolChanges: changes } : {}),
  };
}

/**
 * Provider-native deferred loading: eager tools, then tools discovered some other way (Chatwire's
 * discovery earlier in the conversation, a compaction marker: the provider has no reference to
 * them, so they are sent like discovered tools), and for the adapter to send after its search
 * tool, every lazy tool the policy lets the provider find and load, marked deferred. A tool the
 * provider's search loaded stays deferred: its reference in the history is what loads it again.
 */
async function planProviderSearch(planning: ToolPlanning, history: readonly Message[], toolSearch: ProviderToolSearch): Promise<ToolPlan> {
  const { registry, policy } = planning;
  const discovered = await policy.discovered(history);
  const byProvider = new Set(providerLoadedTools(history, planning.provider));
  const otherwise: string[] = [];
  const deferredTools: ModelTool[] = [];
  for (const tool of planning.lazy) {
    if (discovered.includes(tool.name)) {
      if (!(await policy.isActive(tool.name))) continue;
      if (byProvider.has(tool.name)) deferredTools.push(toDeferredTool(tool));
      continue;
    }
    if ((await policy.allows(tool.name, 'search')) && !(await policy.isRefused(tool.name))) deferredTools.push(toDeferredTool(tool));
  }
  for (const name of discovered) {
    const tool = registry.get(name);
    if (tool?.lazy && !byProvider.has(name) && (await policy.isActive(name))) otherwise.push(name);
  }
  const fresh = policy.newlyDiscovered(history);
  const loaded = new Set([...discovered].filter((name) => byProvider.has(name) || otherwise.includes(name)));
  return {
    tools: [...registry.eager().map(toModelTool), ...otherwise.map((name) => toModelTool(registry.get(name) as RegisteredTool))],
    discoveryTool: undefined,
    deferred: planning.lazy.map((tool) => tool.name).filter((name) => !loaded.has(name)),
    newlyDiscovered: [...loaded].filter((name) => fresh.has(name)),
    auto: planning.auto,
    deferredTools,
    ...(deferredTools.length ? { providerSearch: toolSearch } : {}),
  };
}

/** A lazy tool as sent deferred: the model's view and its group, for adapters that group deferred tools. */
function toDeferredTool(tool: RegisteredTool): ModelTool {
  return { ...toModelTool(tool), ...(tool.group ? { group: tool.group } : {}) };
}

/** `planToolList` over registered tools, producing the model's view of each. */
function planToolListFor(
  tools: readonly RegisteredTool[],
  discovered: readonly string[],
  discoveryTool: (catalog: readonly RegisteredTool[]) => ModelTool,
  policy: { inCatalog: (name: string) => boolean; isActive: (name: string) => boolean },
) {
  const plan = planToolList({ tools, discovered, discoveryTool, ...policy });
  return {
    sent: plan.sent.map((tool) => ('runsOn' in tool ? toModelTool(tool) : tool)),
    discoveryTool: plan.discoveryTool,
    active: plan.active,
    deferred: plan.deferred,
  };
}
