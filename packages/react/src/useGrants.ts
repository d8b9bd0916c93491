import { useCallback, useEffect, useRef, useState } from 'react';
import type { GrantView } from '@chatwire/core';

/** The grants of one chat and its user, from the server's grants endpoint (`createGrantsHandler`). */
export interface GrantsState {
  /** The grants as last listed: this chat's ("allow/deny for this chat") and the user's ("always"). */
  readonly list: readonly GrantView[];
  readonly isLoading: boolean;
  readonly error: Error | null;
  /** Lists them again. */
  readonly refresh: () => Promise<void>;
  /** Revokes one; the list is read again after it. Rejects with the server's message when it refuses. */
  readonly revoke: (id: string) => Promise<void>;
}

/** How {@link useGrants} reaches the endpoint: the chat's own fetch, headers and credentials. */
export interface GrantsRequestOptions {
  readonly fetch?: typeof globalThis.fetch;
  readonly headers?: Record<string, string>;
  readonly credentials?: RequestInit['credentials'];
}

async function answerOf(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  if (!response.ok) throw new Error(typeof body.error === 'string' ? body.error : `The grants endpoint answered ${response.status}.`);
  return body;
}

/**
 * Lists and revokes the grants of a chat (`GET <api>?threadId=`, `POST <api> { revoke, threadId }`).
 * `api` undefined: nothing is loaded and the list stays empty. `version` changes (a run ended)
 * list them again, since a run may have added one.
 *
 * @example
 * ```tsx
 * const grants = useGrants('/api/grants', chatId);
 * grants.list.map((grant) => <button onClick={() => grants.revoke(grant.id)}>{grant.toolName}</button>);
 * ```
 */
export function useGrants(
  api: string | undefined,
  threadId: string,
  options: GrantsRequestOptions = {},
  version: unknown = 0,
): GrantsState {
  const [state, setState] = useState<{ list: readonly GrantView[]; isLoading: boolean; error: Error | null }>({
    list: [],
    isLoading: api !== undefined,
    error: null,
  });
  const latest = useRef(options);
  latest.current = options;
  const request = useCallback(
    (init: RequestInit, query = '') => {
      const { fetch = globalThis.fetch, headers, credentials } = latest.current;
      return fetch(`${api}${query}`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
        ...(credentials ? { credentials } : {}),
      });
    },
    [api],
  );
  const refresh = useCallback(async () => {
    if (api === undefined) return;
    try {
      const body = (await answerOf(await request({ method: 'GET' }, `?threadId=${encodeURIComponent(threadId)}`))) as { grants?: unknown };
      setState({ list: Array.isArray(body.grants) ? (body.grants as GrantView[]) : [], isLoading: false, error: null });
    } catch (error) {
      setState((previous) => ({ ...previous, isLoading: false, error: error instanceof Error ? error : new Error(String(error)) }));
    }
  }, [api, threadId, request]);
  const revoke = useCallback(
    async (id: string) => {
      if (api === undefined) return;
      await answerOf(
        await request({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId, revoke: id }) }),
      );
      await refresh();
    },
    [api, threadId, request, refresh],
  );
  useEffect(() => {
    void refresh();
  }, [refresh, version]);
  return { ...state, refresh, revoke };
}
