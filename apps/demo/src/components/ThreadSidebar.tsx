import { useDeleteThread, useRenameThread, useThreads } from '@chatwire/react/query';
import { useState, type FormEvent } from 'react';
import { threadAddress } from '../currentThread.ts';

/**
 * The threads the server keeps (newest activity first): open one, start a new one, rename or delete
 * one. A column on wide screens; on narrow ones a drawer the header's "Chats" button opens. Titles
 * are the server's (the start of the first message, or the user's rename), shown as text.
 */
export function ThreadSidebar(props: {
  readonly current: string;
  readonly open: boolean;
  readonly onClose: () => void;
  readonly onOpenThread: (id: string) => void;
  readonly onNewThread: () => void;
}) {
  const list = useThreads({ api: '/api/threads' });
  const rename = useRenameThread({ api: '/api/threads' });
  const remove = useDeleteThread({ api: '/api/threads' });
  const [editing, setEditing] = useState<{ readonly id: string; readonly title: string } | undefined>(undefined);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const title = editing.title.trim();
    if (title) rename.mutate({ id: editing.id, title });
    setEditing(undefined);
  };

  return (
    <nav id="thread-sidebar" className="thread-sidebar" data-open={props.open} aria-label="Chats">
      <div className="thread-sidebar-head">
        <h2>Chats</h2>
        <button type="button" className="action" aria-label="New thread" onClick={props.onNewThread}>
          + New
        </button>
        <button type="button" className="thread-sidebar-close action" onClick={props.onClose}>
          Close
        </button>
      </div>
      {list.isPending ? <p className="empty">Loading…</p> : null}
      {list.error ? (
        <p className="empty" role="alert">
          {`The chats could not be loaded: ${list.error.message}`}
        </p>
      ) : null}
      {list.isSuccess && list.threads.length === 0 ? <p className="empty">No chats yet.</p> : null}
      {remove.error ? (
        <p className="empty" role="alert">
          {`Not deleted: ${remove.error.message}`}
        </p>
      ) : null}
      {rename.error ? (
        <p className="empty" role="alert">
          {`Not renamed: ${rename.error.message}`}
        </p>
      ) : null}
      <ul className="thread-list" data-testid="thread-list">
        {list.threads.map((thread) => (
          <li
            key={thread.id}
            className="thread-item"
            data-testid="thread"
            data-thread-id={thread.id}
            aria-current={thread.id === props.current || undefined}
          >
            {editing?.id === thread.id ? (
              <form className="thread-rename" onSubmit={save}>
                <input
                  aria-label="Chat title"
                  value={editing.title}
                  maxLength={200}
                  autoFocus
                  onChange={(event) => setEditing({ id: thread.id, title: event.target.value })}
                  onKeyDown={(event) => {
                    if (event.key === 'Escape') {
                      event.preventDefault();
                      setEditing(undefined);
                    }
                  }}
                />
                <button type="submit" className="action">
                  Save
                </button>
              </form>
            ) : (
              <>
                <a
                  className="thread-open"
                  href={threadAddress(thread.id)}
                  title={thread.title}
                  onClick={(event) => {
                    // A plain click opens it here; a middle or modified click opens a tab as links do.
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                    event.preventDefault();
                    props.onOpenThread(thread.id);
                  }}
                >
                  {thread.title || 'Untitled chat'}
                </a>
                <button
                  type="button"
                  className="thread-action"
                  aria-label="Rename chat"
                  onClick={() => setEditing({ id: thread.id, title: thread.title })}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="thread-action"
                  aria-label="Delete chat"
                  onClick={() => {
                    remove.mutate(thread.id);
                    if (thread.id === props.current) props.onNewThread();
                  }}
                >
                  ×
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {list.hasNextPage ? (
        <button type="button" className="action" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          More chats
        </button>
      ) : null}
    </nav>
  );
}
