import { codeModeDevtoolsView } from '@chatwire/code-mode/client';
import {
  answerInputRequest,
  chatStatusWords,
  readInputRequest,
  type ChatMessage,
  type InputAnswerInput,
  type MessagePart,
  type ToolCallPart,
} from '@chatwire/core';
import { ChatwireDevtools } from '@chatwire/devtools';
import { useThreadChat } from '@chatwire/react/query';
import { BranchPicker, ChatError, Composer, LinkRequest, MessageList, type McpAppsOptions } from '@chatwire/ui';
import { mcpAppsDevtoolsView } from '@chatwire/ui/devtools';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApprovalOptions, ApprovalsPanel } from './components/ApprovalsPanel.tsx';
import { InputRequestForm } from './components/InputRequestForm.tsx';
import { PagePanel } from './components/PagePanel.tsx';
import { ThreadSidebar } from './components/ThreadSidebar.tsx';
import { showNoThreadInAddress, showThreadInAddress, threadInAddress } from './currentThread.ts';
import { pageStateOf } from './pageState.ts';
import { clearSavedChat, loadSavedChat, newChatId, useSavedChat } from './savedChat.ts';
import { createToolUIs } from './toolUIs.tsx';
import { createBrowserTools } from './tools/browserTools.ts';

/**
 * The devtools panel: in development from the main entry (nothing in production builds); a build
 * made with VITE_CHATWIRE_DEVTOOLS=on opts in through the `/production` subpath (the e2e tests use it).
 */
const Devtools =
  import.meta.env.VITE_CHATWIRE_DEVTOOLS === 'on'
    ? lazy(() => import('@chatwire/devtools/production').then((module) => ({ default: module.ChatwireDevtools })))
    : ChatwireDevtools;
/** The views other packages add to the panel: Code Mode's tab and the MCP Apps tab (their code loads when the panel opens). */
const devtoolsViews = [codeModeDevtoolsView, mcpAppsDevtoolsView];

/**
 * The demo: the thread the address names (`?thread=`), else the one open last, else a new one. The
 * server keeps the threads; switching remounts the page for the other thread.
 */
export function App() {
  const [open, setOpen] = useState(() => {
    const named = threadInAddress();
    if (named) return { id: named, isNew: false };
    const last = loadSavedChat();
    // A chat saved with messages was sent to the server; a new one exists there once its first run ended.
    return last?.threadId && last.messages.length > 0 ? { id: last.threadId, isNew: false } : { id: newChatId(), isNew: true };
  });
  const openThread = useCallback((id: string, isNew = false) => setOpen({ id, isNew }), []);
  return <ChatPage key={open.id} threadId={open.id} isNew={open.isNew} onOpenThread={openThread} />;
}

/** One thread's page: a conversation built from @chatwire/ui, the thread list, and the page state that browser tools change. */
function ChatPage(props: {
  readonly threadId: string;
  readonly isNew: boolean;
  readonly onOpenThread: (id: string, isNew?: boolean) => void;
}) {
  const { threadId: chatId, onOpenThread } = props;
  const [panelOpen, setPanelOpen] = useState(false);
  const [threadsOpen, setThreadsOpen] = useState(false);
  const conversation = useRef<HTMLElement>(null);
  const [tools] = useState(() => createBrowserTools({ scrollToTop: () => conversation.current?.scrollTo({ top: 0 }) }));
  // Renderers for the demo's tools; every other tool gets @chatwire/ui's generic card.
  const [toolUIs] = useState(() => createToolUIs(() => setPanelOpen(true)));
  // The server keeps every thread (the list, and each one's branches). The open one is also saved in
  // localStorage with its run in flight, so a reload shows it at once and reads that run to its end
  // (resumable streams; the server keeps the run going). Any other thread loads from the server.
  const [saved] = useState(() => {
    const last = loadSavedChat();
    return last?.threadId === chatId && last.messages.length > 0 ? last : undefined;
  });
  // Each chat has its own id, the thread's: grants "for this chat" belong to it.
  const chat = useThreadChat({
    id: chatId,
    api: '/api/chat',
    threads: { api: '/api/threads' },
    newThread: props.isNew,
    tools,
    catalog: '/api/tools',
    grants: '/api/grants',
    resume: true,
    ...(saved ? { initialMessages: saved.messages, initialActiveRun: saved.activeRun, initialResumeToken: saved.resumeToken } : {}),
  });
  const { client } = chat;
  // Answers the user cut off, marked as stopped (the chat keeps what arrived); saved with the chat.
  const [stopped, setStopped] = useState<ReadonlySet<string>>(() => new Set(saved?.stopped ?? []));
  useSavedChat(client, stopped);
  const { discovered, undiscovered } = chat.discovery;
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  // What the browser tools did to the page, read from the conversation (so a reload restores it).
  const page = useMemo(() => pageStateOf(chat.messages), [chat.messages]);

  const stop = useCallback(() => {
    const { status, messages } = client.getSnapshot();
    if (status !== 'submitted' && status !== 'streaming') return;
    const last = messages[messages.length - 1];
    if (last) setStopped((current) => new Set(current).add(last.id));
    client.stop();
  }, [client]);

  // Escape stops a response from anywhere on the page (an open editor or the devtools panel keep it for themselves).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stop]);

  // MCP Apps act through this chat: their tool calls, messages and model context go through the client.
  const apps = useMemo<McpAppsOptions>(() => ({ chat: client }), [client]);
  // Each waiting call's approval is on its card: Approve / Deny and the server's grant options, one UI per call.
  const { addToolApprovalResponse } = chat;
  const renderApproval = useCallback(
    (part: ToolCallPart) => <ApprovalOptions part={part} onAnswer={addToolApprovalResponse} />,
    [addToolApprovalResponse],
  );
  const onRegenerate = useCallback(() => void client.regenerate(), [client]);
  // An edit keeps the message's attachments (an edit replaces them otherwise); the server keeps the
  // old version as a sibling branch.
  const { sendMessage } = chat;
  const onEdit = useCallback(
    (messageId: string, text: string) => {
      const edited = client.getSnapshot().messages.find((message) => message.id === messageId);
      const files = edited?.parts.filter((part) => part.type === 'file') ?? [];
      void sendMessage(files.length > 0 ? { text, messageId, files } : { text, messageId });
    },
    [client, sendMessage],
  );
  // ‹ 1/2 › on edited messages and regenerated answers (the thread's branch points).
  const { branchAt, switchBranch } = chat;
  const [branchError, setBranchError] = useState<string | undefined>(undefined);
  const renderMessageEnd = useCallback(
    (message: ChatMessage) => {
      const view = branchAt(message);
      if (!view) return null;
      const go = (id: string | undefined) => {
        if (id === undefined) return;
        setBranchError(undefined);
        switchBranch(id).catch((error: unknown) => setBranchError(error instanceof Error ? error.message : String(error)));
      };
      return (
        <BranchPicker
          index={view.index}
          count={view.count}
          disabled={busy}
          label={message.role === 'user' ? 'Versions of this message' : 'Versions of this answer'}
          onPrevious={() => go(view.previous)}
          onNext={() => go(view.next)}
        />
      );
    },
    [branchAt, switchBranch, busy],
  );
  const openThread = useCallback(
    (id: string) => {
      setThreadsOpen(false);
      if (id !== chatId) onOpenThread(id);
    },
    [chatId, onOpenThread],
  );
  const newThread = useCallback(() => {
    // The old thread stays on the server (and in the list); the page forgets its local copy.
    clearSavedChat();
    onOpenThread(newChatId(), true);
  }, [onOpenThread]);
  // The address names the thread once the server has it (a reload of a new, empty chat starts another new one).
  const known = !props.isNew || chat.thread !== undefined;
  useEffect(() => {
    if (known) showThreadInAddress(chatId);
    else showNoThreadInAddress();
  }, [known, chatId]);
  // A server tool asking for input (the demo's bookTable, an MCP server's elicitation): a form from its schema.
  const onInputAnswer = useCallback((answer: InputAnswerInput) => answerInputRequest(client, answer), [client]);
  const renderPart = useCallback(
    (part: MessagePart, _message: ChatMessage) => {
      if (part.type !== 'interrupt') return null;
      const request = readInputRequest(part);
      if (!request) return null;
      // A link to open (signing in to an MCP server, a URL elicitation), else a form from the schema.
      return request.url ? (
        <LinkRequest request={request} onAnswer={onInputAnswer} />
      ) : (
        <InputRequestForm request={request} onAnswer={onInputAnswer} />
      );
    },
    [onInputAnswer],
  );
  const pendingApprovals = useMemo(() => chat.pendingApprovals.map((part) => part.toolName), [chat.pendingApprovals]);

  // Follow the conversation while it grows, unless the reader scrolled up.
  const pinned = useRef(true);
  useEffect(() => {
    const element = conversation.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [chat.messages, chat.grants.list]);
  // ...and while its box shrinks (a docked devtools panel, the keyboard on a phone), so the latest stays in view.
  useEffect(() => {
    const element = conversation.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const panelCount = page.notes.length + page.todos.length;
  // The chat is at rest while a call waits for the person: say what it waits for.
  const status = chatStatusWords(chat);
  const lazyCount = discovered.length + undiscovered.length;
  return (
    <div className="app" data-theme={page.theme} data-accent={page.accent} data-testid="app">
      {page.banner ? (
        <div className={`banner banner-${page.banner.tone}`} role="status" data-testid="banner">
          {page.banner.text}
        </div>
      ) : null}
      <header className="app-header">
        <h1>Chatwire</h1>
        <span
          className="status"
          title="Lazy tools stay out of the prompt until the model discovers them; discovered ones are sent from then on"
          data-testid="discovery-count"
        >
          {`${discovered.length}/${lazyCount} lazy tools discovered`}
        </span>
        <span className="status" data-testid="status" data-status={status}>
          {status}
        </span>
        <button
          type="button"
          className="threads-toggle"
          aria-controls="thread-sidebar"
          aria-expanded={threadsOpen}
          data-testid="threads-toggle"
          onClick={() => setThreadsOpen((open) => !open)}
        >
          Chats
        </button>
        {chat.messages.length > 0 ? (
          <button
            type="button"
            className="header-button"
            aria-label="New chat"
            onClick={() => {
              // Stops a response on the server too; the old chat stays in the list.
              client.stop();
              newThread();
            }}
          >
            New<span className="header-button-more"> chat</span>
          </button>
        ) : null}
        <button
          type="button"
          className="panel-toggle"
          aria-controls="page-panel"
          aria-expanded={panelOpen}
          data-testid="panel-toggle"
          onClick={() => setPanelOpen((open) => !open)}
        >
          Notes & to-do
          {panelCount > 0 ? (
            <span className="badge" data-testid="panel-count">
              {panelCount}
            </span>
          ) : null}
        </button>
      </header>
      <div className="layout">
        <ThreadSidebar
          current={chatId}
          open={threadsOpen}
          onClose={() => setThreadsOpen(false)}
          onOpenThread={openThread}
          onNewThread={() => {
            setThreadsOpen(false);
            newThread();
          }}
        />
        <div className="chat-column">
          <main
            className="conversation"
            ref={conversation}
            onScroll={(event) => {
              const element = event.currentTarget;
              pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
            }}
          >
            {chat.messages.length === 0 ? (
              <p className="empty-chat">
                Try “use getWeather for Paris”, “use addTodo for buy oat milk” (a lazy tool: watch the discovery step), “show me some
                markdown”, “use refundOrder for ORD-1234”, “book a table” or “use code to compare the weather in Paris and Tokyo”. With MCP
                on: “use basic__get-time” or “use budget__get-budget-data” (MCP Apps).
              </p>
            ) : null}
            <MessageList
              messages={chat.messages}
              busy={busy}
              stopped={stopped}
              tools={toolUIs}
              apps={apps}
              renderApproval={renderApproval}
              onRegenerate={onRegenerate}
              onEdit={onEdit}
              renderPart={renderPart}
              renderMessageEnd={renderMessageEnd}
            />
            {branchError ? (
              <p className="branch-error" role="alert">
                {`That version could not be shown: ${branchError}`}
              </p>
            ) : null}
            {chat.error ? <ChatError error={chat.error} onRetry={onRegenerate} onDismiss={chat.clearError} /> : null}
            {/* In the scrolling conversation, so it never takes room from it on a phone. */}
            {chat.pendingApprovals.length > 1 || chat.grants.list.length > 0 ? (
              <ApprovalsPanel pending={chat.pendingApprovals} onAnswerAll={chat.answerAllApprovals} grants={chat.grants} />
            ) : null}
          </main>
          <Composer
            busy={busy}
            pendingApprovals={pendingApprovals}
            placeholder="Ask something, or name a tool…"
            mcp={{}}
            onSend={(text, files) => chat.sendMessage(files.length > 0 ? { text, files } : text)}
            onStop={stop}
          />
        </div>
        <PagePanel notes={page.notes} todos={page.todos} open={panelOpen} onClose={() => setPanelOpen(false)} />
      </div>
      <Suspense fallback={null}>
        <Devtools client={client} catalogUrl="/api/tools" grantsUrl="/api/grants" views={devtoolsViews} />
      </Suspense>
    </div>
  );
}
