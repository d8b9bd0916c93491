import { chatStatusWords, type ChatMessage, type ToolCallPart } from '@chatwire/core';
import { ChatwireDevtools } from '@chatwire/devtools';
import { useThreadChat } from '@chatwire/react/query';
import { ApprovalPrompt, BranchPicker, ChatError, Composer, MessageList } from '@chatwire/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { showInAddress, threadInAddress } from './threadAddress.ts';
import { ThreadList } from './ThreadList.tsx';
import { setTheme } from './tools.ts';

type Theme = 'light' | 'dark';

/** The theme the conversation's last approved `setTheme` chose: the page reads it from the thread, so a reload keeps it. */
function themeOf(messages: readonly ChatMessage[]): Theme {
  let theme: Theme = 'light';
  for (const message of messages)
    for (const part of message.parts)
      if (part.type === 'tool-call' && part.toolName === 'setTheme' && part.state === 'output-available')
        theme = (part.input as { theme: Theme }).theme;
  return theme;
}

/** The thread the address names, else a new one; the server keeps every thread (the list on the side). */
export function App() {
  const [open, setOpen] = useState(() => {
    const named = threadInAddress();
    return named ? { id: named, isNew: false } : { id: crypto.randomUUID(), isNew: true };
  });
  const openThread = useCallback((id: string) => setOpen({ id, isNew: false }), []);
  const newThread = useCallback(() => setOpen({ id: crypto.randomUUID(), isNew: true }), []);
  return <ChatPage key={open.id} threadId={open.id} isNew={open.isNew} onOpen={openThread} onNew={newThread} />;
}

function ChatPage(props: { threadId: string; isNew: boolean; onOpen: (id: string) => void; onNew: () => void }) {
  // The browser tool's implementation: the model calls it, the page runs it (after the user approves). Made once.
  const [tools] = useState(() => [setTheme.client(({ theme }) => ({ theme }))]);
  const chat = useThreadChat({
    id: props.threadId,
    api: '/api/chat',
    threads: { api: '/api/threads' },
    newThread: props.isNew, // a new id: nothing to load until its first run has ended
    tools,
    grants: '/api/grants',
  });
  const { client, addToolApprovalResponse, branchAt, switchBranch } = chat;
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  const theme = useMemo(() => themeOf(chat.messages), [chat.messages]);
  const [showThreads, setShowThreads] = useState(false);

  // Follow the conversation as it grows, unless the reader scrolled up.
  const conversation = useRef<HTMLElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const element = conversation.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [chat.messages]);

  // The address names the thread once the server has it (a reload of a new, empty chat starts another new one).
  const known = !props.isNew || chat.thread !== undefined;
  useEffect(() => showInAddress(known ? props.threadId : undefined), [known, props.threadId]);

  // One approval UI per waiting call, on its card: Approve / Deny, and "Allow for this chat" when the server offers it.
  const renderApproval = useCallback(
    (part: ToolCallPart) => (
      <div className="approval">
        <ApprovalPrompt part={part} onRespond={(id, approved) => addToolApprovalResponse({ id, approved })} />
        {part.approval?.grantOptions?.includes('thread') ? (
          <button type="button" onClick={() => addToolApprovalResponse({ id: part.approval!.id, approved: true, grant: 'thread' })}>
            Allow for this chat
          </button>
        ) : null}
      </div>
    ),
    [addToolApprovalResponse],
  );
  const onRegenerate = useCallback(() => void client.regenerate(), [client]);
  // An edit is a new message beside the old one: the thread keeps both as branches (‹ 1/2 ›).
  const onEdit = useCallback((messageId: string, text: string) => void client.sendMessage({ text, messageId }), [client]);
  const renderMessageEnd = useCallback(
    (message: ChatMessage) => {
      const view = branchAt(message);
      if (!view) return null;
      return (
        <BranchPicker
          index={view.index}
          count={view.count}
          disabled={busy}
          onPrevious={() => void switchBranch(view.previous!)}
          onNext={() => void switchBranch(view.next!)}
        />
      );
    },
    [branchAt, switchBranch, busy],
  );
  const pendingApprovals = useMemo(() => chat.pendingApprovals.map((part) => part.toolName), [chat.pendingApprovals]);
  // At rest while a call waits for the person: say what it waits for.
  const status = chatStatusWords(chat);

  return (
    <div className="app" data-theme={theme}>
      <header className="header">
        <h1>Chat</h1>
        <span className="status" data-testid="status">
          {status}
        </span>
        <button type="button" className="threads-toggle" aria-expanded={showThreads} onClick={() => setShowThreads((shown) => !shown)}>
          Chats
        </button>
      </header>
      <div className="layout" data-threads={showThreads ? 'shown' : 'hidden'}>
        <ThreadList
          current={props.threadId}
          onOpen={(id) => {
            setShowThreads(false);
            if (id !== props.threadId) props.onOpen(id);
          }}
          onNew={props.onNew}
        />
        <div className="chat">
          <main
            className="conversation"
            ref={conversation}
            onScroll={(event) => {
              const element = event.currentTarget;
              pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
            }}
          >
            <MessageList
              messages={chat.messages}
              busy={busy}
              renderApproval={renderApproval}
              onRegenerate={onRegenerate}
              onEdit={onEdit}
              renderMessageEnd={renderMessageEnd}
              empty={
                <p className="muted">
                  Try “use getWeather for Paris” (a lazy tool), “use memory__read_graph” (an MCP server’s tool) or “use setTheme dark” (asks
                  first).
                </p>
              }
            />
            {chat.error ? <ChatError error={chat.error} onRetry={onRegenerate} onDismiss={chat.clearError} /> : null}
            {chat.grants.list.length > 0 ? (
              <section className="grants" aria-label="Grants">
                {chat.grants.list.map((grant) => (
                  <p key={grant.id}>
                    {`${grant.toolName} is allowed ${grant.scope === 'thread' ? 'in this chat' : 'always'}`}{' '}
                    <button type="button" onClick={() => void chat.grants.revoke(grant.id)}>
                      Revoke
                    </button>
                  </p>
                ))}
              </section>
            ) : null}
          </main>
          <Composer
            busy={busy}
            accept={false}
            pendingApprovals={pendingApprovals}
            placeholder="Ask something, or name a tool…"
            onSend={(text) => chat.sendMessage(text)}
            onStop={chat.stop}
          />
        </div>
      </div>
      {/* Development only: the production build renders nothing here and ships no panel code. */}
      <ChatwireDevtools client={client} catalogUrl="/api/tools" grantsUrl="/api/grants" />
    </div>
  );
}
