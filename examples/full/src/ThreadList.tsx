import { useDeleteThread, useThreads } from '@chatwire/react/query';
import { threadAddress } from './threadAddress.ts';

/**
 * The threads the server keeps, newest activity first (`useThreads`): open one, delete one, start a new one. Titles are
 * the server's (the start of the first message), shown as text.
 */
export function ThreadList(props: { readonly current: string; readonly onOpen: (id: string) => void; readonly onNew: () => void }) {
  const list = useThreads({ api: '/api/threads' });
  const remove = useDeleteThread({ api: '/api/threads' });
  return (
    <nav className="threads" aria-label="Chats">
      <button type="button" className="new-chat" onClick={props.onNew}>
        New chat
      </button>
      {list.error ? <p role="alert">{`The chats could not be loaded: ${list.error.message}`}</p> : null}
      {list.isSuccess && list.threads.length === 0 ? <p className="muted">No chats yet.</p> : null}
      <ul>
        {list.threads.map((thread) => (
          <li key={thread.id} aria-current={thread.id === props.current || undefined}>
            <a
              href={threadAddress(thread.id)}
              title={thread.title}
              onClick={(event) => {
                // A plain click opens it here; a modified one opens a tab, as links do.
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                props.onOpen(thread.id);
              }}
            >
              {thread.title || 'Untitled chat'}
            </a>
            <button
              type="button"
              aria-label={`Delete ${thread.title || 'this chat'}`}
              onClick={() => {
                remove.mutate(thread.id);
                if (thread.id === props.current) props.onNew();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {list.hasNextPage ? (
        <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          More chats
        </button>
      ) : null}
    </nav>
  );
}
