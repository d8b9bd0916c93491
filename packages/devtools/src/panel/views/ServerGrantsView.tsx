import { useCallback, useEffect, useState } from 'react';
import type { GrantView } from '@chatwire/core';

/** Where the panel reads a chat's grants: the server's grants endpoint (`createGrantsHandler`). */
export interface ServerGrantsSource {
  readonly url: string;
  readonly threadId: string;
  /** Changes (a turn settled, Refresh) list the grants again: a turn's answers may have added one. */
  readonly version: string;
}

const truncated = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

async function answerOf(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  if (!response.ok) throw new Error(typeof body.error === 'string' ? body.error : `the grants endpoint answered ${response.status}`);
  return body;
}

const isGrant = (value: unknown): value is GrantView => {
  const grant = value as Partial<GrantView> | null;
  return typeof grant?.id === 'string' && typeof grant.toolName === 'string';
};

/**
 * The chat's grants as the server lists them (`GET <url>?threadId=`), each with Revoke
 * (`POST <url> { threadId, revoke }`); the list is read again after a revoke. The same requests
 * as `useGrants` in `@chatwire/react`, written here so the devtools does not depend on React bindings.
 */
export function ServerGrantsView(props: { source: ServerGrantsSource }) {
  const { url, threadId, version } = props.source;
  const [grants, setGrants] = useState<readonly GrantView[] | undefined>(undefined);
  // Kept apart: listing again after a refused revoke must not hide why it was refused.
  const [listError, setListError] = useState<string | undefined>(undefined);
  const [revokeError, setRevokeError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [listed, setListed] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    fetch(`${url}?threadId=${encodeURIComponent(threadId)}`, { signal: abort.signal, headers: { accept: 'application/json' } })
      .then(async (response) => {
        const body = (await answerOf(response)) as { grants?: unknown };
        setGrants(Array.isArray(body.grants) ? body.grants.filter(isGrant) : []);
        setListError(undefined);
      })
      .catch((failure: unknown) => {
        if (!abort.signal.aborted)
          setListError(`Could not list the grants: ${failure instanceof Error ? failure.message : String(failure)}`);
      });
    return () => abort.abort();
  }, [url, threadId, version, listed]);
  const revoke = useCallback(
    async (id: string) => {
      setBusy(id);
      try {
        await answerOf(
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ threadId, revoke: id }),
          }),
        );
        setRevokeError(undefined);
      } catch (failure) {
        setRevokeError(`Could not revoke ${id}: ${failure instanceof Error ? failure.message : String(failure)}`);
      } finally {
        setBusy(undefined);
        setListed((count) => count + 1);
      }
    },
    [url, threadId],
  );
  return (
    <>
      <h3>Grants on the server (this chat and its user)</h3>
      {[listError, revokeError].map((error) =>
        error ? (
          <p key={error} className="cw-bad" role="alert" data-testid="devtools-server-grants-error">
            {truncated(error)}
          </p>
        ) : null,
      )}
      {grants === undefined ? null : grants.length === 0 ? (
        <p className="cw-empty">No grants.</p>
      ) : (
        <table aria-label="Grants on the server">
          <thead>
            <tr>
              <th>Grant</th>
              <th>Tool</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.id} data-testid="devtools-server-grant" data-grant={grant.id}>
                <td>
                  {`${grant.effect} · ${grant.scope === 'always' ? 'always' : 'this chat'}`}
                  <br />
                  <span className="cw-muted">{grant.id}</span>
                </td>
                <td>{grant.arguments ? `${grant.toolName} ${truncated(grant.arguments)}` : grant.toolName}</td>
                <td>
                  <button
                    type="button"
                    className="cw-button"
                    disabled={busy !== undefined}
                    aria-label={`Revoke ${grant.id}`}
                    onClick={() => void revoke(grant.id)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
