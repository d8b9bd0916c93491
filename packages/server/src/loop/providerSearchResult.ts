import type { Event } from '@ag-ui/core';
import { DISCOVERY_NOTE } from '@chatwire/core/shared';
import type { ProviderSearchMarker } from '../discovery/providerToolSearch.js';
import type { ModelTool } from '../model/chatModel.js';
import type { ProviderSearch } from './modelStep.js';
import { resultEvent } from './resultEvents.js';
import type { RunContext } from '../run/runContext.js';

/**
 * Answers a provider's search with a signed discovery result. Trust nothing: only names among the
 * tools this request sent deferred are loaded; any other name the provider reported (eager, unknown,
 * refused by the policy) is a per-name error and stays unavailable, so a call to it is refused.
 */
export function providerSearchResult(context: RunContext, search: ProviderSearch, deferred: readonly ModelTool[], provider: string): Event {
  if (search.error) {
    const marker: ProviderSearchMarker = { provider, ...(search.error.code === undefined ? {} : { errorCode: search.error.code }) };
    const error = search.error.message;
    return resultEvent(context, search.call, JSON.stringify({ error, providerSearch: marker }), { outcome: 'error', error });
  }
  const sent = new Set(deferred.map((tool) => tool.name));
  const discovered: string[] = [];
  const errors: Record<string, string> = {};
  for (const name of new Set(search.toolNames)) {
    if (sent.has(name)) discovered.push(name);
    else errors[name] = `The provider's search returned '${name}', which was not among the tools sent for it to load; it is not available.`;
  }
  const content = {
    discovered,
    ...(Object.keys(errors).length ? { errors } : {}),
    note: discovered.length ? DISCOVERY_NOTE : 'No tools were loaded.',
    providerSearch: { provider } satisfies ProviderSearchMarker,
  };
  return resultEvent(context, search.call, JSON.stringify(content), {});
}
