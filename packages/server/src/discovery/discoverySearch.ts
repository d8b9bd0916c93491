import { createToolSearch, runDiscoverySearch, type DiscoverySearchReport, type ToolSearch } from '@chatwire/core/shared';
import type { RegisteredTool } from '../tools/toolRegistry.js';
import type { DiscoveryOptions } from './discoveryOptions.js';

/** Search indexes, one per `discovery` options object (one per `chat()` setup): built once, updated when the catalog changes. */
const indexes = new WeakMap<DiscoveryOptions, ToolSearch>();

/**
 * Discovery's search for one run: core's search (the `search` hook when set, else the built-in
 * index, with its timeout) over the lazy tools, and the report of which search answered each
 * query, kept until the next model-call usage event takes it.
 */
export class DiscoverySearch {
  readonly #options: DiscoveryOptions;
  readonly #lazy: readonly RegisteredTool[];
  /** Searches since the last usage report. */
  #reports: DiscoverySearchReport[] = [];

  constructor(options: DiscoveryOptions, lazy: readonly RegisteredTool[]) {
    this.#options = options;
    this.#lazy = lazy;
  }

  /** The search index over this setup's lazy tools, brought up to date with this request's catalog. */
  #index(): ToolSearch {
    const tools = this.#lazy.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters,
      ...(tool.group ? { group: tool.group } : {}),
    }));
    const groups = this.#options.groups ? { groups: this.#options.groups } : {};
    let index = indexes.get(this.#options);
    if (!index) indexes.set(this.#options, (index = createToolSearch(tools, groups)));
    else index.update(tools, groups);
    return index;
  }

  /** Searches `tools` for `query`: at most `topK` matches scoring at least `minScore`. */
  async search(query: string, tools: readonly { name: string; description: string; group?: string }[], topK: number, minScore: number) {
    const outcome = await runDiscoverySearch({
      query,
      tools,
      index: () => this.#index(),
      topK,
      minScore,
      ...(this.#options.search ? { hook: this.#options.search } : {}),
      ...(this.#options.searchTimeoutMs === undefined ? {} : { timeoutMs: this.#options.searchTimeoutMs }),
    });
    this.#reports.push(outcome.report);
    return outcome;
  }

  /** The searches since the last call (which search answered each), emptying the list. */
  takeReports(): DiscoverySearchReport[] {
    const reports = this.#reports;
    this.#reports = [];
    return reports;
  }
}
