import type { Message } from '@ag-ui/core';
import {
  discoveredToolsInWire,
  isAllowed,
  newlyDiscoveredTools,
  type DiscoveryCatalogAccess,
  type DiscoveryPhase,
} from '@chatwire/core/shared';
import { fingerprintOf } from '../extensions/chatwireExtension.js';
import type { RegisteredTool, ToolRegistry } from '../tools/toolRegistry.js';
import type { DiscoveryOptions } from './discoveryOptions.js';
import { recordedVersions } from './toolVersions.js';

/**
 * The discovery policy of one request: what the `filter` option allows in each phase (`search`,
 * `load`, `active`), and the discovered set a history proves, vetted by the `load` policy and by
 * drift (a tool whose definition changed since it was discovered must be discovered again).
 * Nothing is kept between requests; `load` answers are resolved once per request (filters may be
 * async) so the derivations stay synchronous.
 */
export class DiscoveryPolicy {
  readonly #registry: ToolRegistry;
  readonly #filter: DiscoveryOptions['filter'];
  readonly #lazy: readonly RegisteredTool[];
  /** The catalog as core's discovery answering reads it: lookup, the filter, the searchable tools. */
  readonly catalog: DiscoveryCatalogAccess;
  /** Answers of the `load` policy for this request. */
  readonly #loadable = new Map<string, boolean>();

  constructor(registry: ToolRegistry, filter: DiscoveryOptions['filter'], lazy: readonly RegisteredTool[]) {
    this.#registry = registry;
    this.#filter = filter;
    this.#lazy = lazy;
    this.catalog = {
      // A tool only apps may call is no tool the model can discover.
      lookup: (name) => {
        const tool = registry.get(name);
        return tool?.appOnly ? undefined : tool;
      },
      ...(filter ? { allowed: filter } : {}),
      searchable: () => lazy,
    };
  }

  /** Whether the filter allows `name` in `phase` (a throwing filter blocks). */
  allows(name: string, phase: DiscoveryPhase): Promise<boolean> {
    return isAllowed(this.catalog, name, phase);
  }

  /** Resolves the `load` policy for every lazy tool once per request. */
  async #prepare(): Promise<void> {
    if (this.#loadable.size > 0 || !this.#filter) return;
    for (const tool of this.#lazy) this.#loadable.set(tool.name, await this.allows(tool.name, 'load'));
  }

  readonly #accept = (name: string): boolean => this.#loadable.get(name) ?? true;

  /** Whether the `load` policy lets this tool load (call `discovered` or `isRefused` first in the request). */
  accepts(name: string): boolean {
    return this.#accept(name);
  }

  /**
   * The discovered lazy tools of a history, in discovery order, each allowed by the `load` policy.
   * A tool whose definition drifted (its fingerprint differs from the one recorded when the
   * conversation last discovered it) is left out: it must be discovered again.
   */
  async discovered(history: readonly Message[]): Promise<string[]> {
    await this.#prepare();
    const names = discoveredToolsInWire(history, this.#accept);
    const recorded = recordedVersions(history);
    if (recorded.size === 0) return names;
    return names.filter((name) => {
      const then = recorded.get(name);
      return then === undefined || then === this.fingerprint(name);
    });
  }

  /** Tools the last discovery exchange of a history loaded (call `discovered` first in the request). */
  newlyDiscovered(history: readonly Message[]): Set<string> {
    return new Set(newlyDiscoveredTools(history, this.#accept));
  }

  /** Whether the `load` policy refuses this tool for the request (so calling it can never work). */
  async isRefused(name: string): Promise<boolean> {
    await this.#prepare();
    return this.#loadable.get(name) === false;
  }

  /** Whether a discovered tool may be sent and called in this request. */
  isActive(name: string): Promise<boolean> {
    return this.allows(name, 'active');
  }

  /** The drift fingerprint of a tool, when its extension tracks drift. */
  fingerprint(name: string): string | undefined {
    return fingerprintOf(this.#registry.get(name)?.definition);
  }

  /** `{ name: fingerprint }` of the tools among `names` that track drift, or `undefined` when none does. */
  versionsOf(names: readonly string[]): Record<string, string> | undefined {
    const versions: Record<string, string> = {};
    for (const name of names) {
      const version = this.fingerprint(name);
      if (version !== undefined) versions[name] = version;
    }
    return Object.keys(versions).length > 0 ? versions : undefined;
  }
}
