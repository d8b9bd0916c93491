import type { ToolServerStatus } from '@chatwire/core/shared';
import type { McpConnection } from '../connection/mcpConnection.js';
import { DEFAULT_RESOURCE_LIMITS, listPrompts, listResources } from '../resources/resourceReads.js';

/** Resources and prompts a server's catalog status lists. */
const LISTED = 50;

type Listing = Pick<ToolServerStatus, 'resources' | 'prompts'>;

/** Each connected server's resources and prompts (the first 50), for its catalog status. */
export class ServerListings {
  readonly #listings = new Map<string, Listing>();

  /**
   * Reads a connected server's resources and prompts (the first 50 of each) for its catalog status;
   * a server that lists none, or fails to, shows none.
   */
  read(connection: McpConnection): void {
    void connection
      .useClient(async (client, timeoutMs) => {
        const limits = { ...DEFAULT_RESOURCE_LIMITS, maxResources: LISTED, maxPrompts: LISTED, timeoutMs };
        const [resources, prompts] = await Promise.all([
          listResources(client, limits).catch(() => undefined),
          listPrompts(client, limits).catch(() => undefined),
        ]);
        return {
          resources: (resources?.resources ?? []).map(({ uri, name, mimeType }) => ({ uri, name, ...(mimeType ? { mimeType } : {}) })),
          prompts: (prompts?.prompts ?? []).map((prompt) => ({ name: prompt.name, arguments: prompt.arguments.map((item) => item.name) })),
        };
      })
      .then((listing) => {
        if (connection.state === 'connected') this.#listings.set(connection.name, listing);
      })
      .catch(() => {});
  }

  /** A server's listed resources and prompts, those it has (none while it is not `connected`). */
  of(name: string, connected: boolean): Listing {
    const listing = this.#listings.get(name);
    if (!listing || !connected) return {};
    return {
      ...(listing.resources?.length ? { resources: listing.resources } : {}),
      ...(listing.prompts?.length ? { prompts: listing.prompts } : {}),
    };
  }
}
