import { MCP_APP_EVENT, type ActiveRun, type ChatClient, type ChatMessage } from '@chatwire/core';
import { useEffect, useRef } from 'react';

/**
 * The demo chat kept in localStorage, so a reload continues it: the messages, and for resumable
 * streams the run in flight with the last event applied (`activeRun`) and the chat's resume token.
 * All three come from one snapshot, so the saved messages and `lastEventId` always agree: after a
 * reload, `useChat({ resume: true })` reads the run's events after that id, and none twice.
 */
export interface SavedChat {
  /** The chat's id (AG-UI `threadId`): grants "for this chat" belong to it. */
  readonly threadId?: string;
  readonly messages: readonly ChatMessage[];
  readonly activeRun?: ActiveRun;
  readonly resumeToken?: string;
  /** Ids of messages whose answer the user stopped (their "Stopped" marker survives a reload). */
  readonly stopped?: readonly string[];
}

const KEY = 'chatwire-demo-chat';

/** How often, at most, a streaming chat is written (a reload writes the latest state at once, on `pagehide`). */
const SAVE_EVERY_MS = 250;

/** The saved chat, if there is one that reads back (anything else is ignored, never an error). */
export function loadSavedChat(): SavedChat | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as SavedChat | null;
    if (!saved || !Array.isArray(saved.messages)) return undefined;
    const stopped = Array.isArray(saved.stopped) ? saved.stopped.filter((id): id is string => typeof id === 'string') : [];
    const threadId = typeof saved.threadId === 'string' && /^[\w-]{1,64}$/.test(saved.threadId) ? saved.threadId : undefined;
    return { ...saved, stopped, ...(threadId ? { threadId } : { threadId: undefined }) };
  } catch {
    return undefined;
  }
}

/** Forgets the saved chat. */
export function clearSavedChat(): void {
  localStorage.removeItem(KEY);
}

/**
 * The messages without the MCP Apps' HTML (hundreds of kB each, which would fill localStorage's few
 * MB): after a reload such a call shows its card, saying its app was not kept.
 */
function withoutAppDocuments(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (!messages.some((message) => message.parts.some((part) => part.type === 'data' && part.name === MCP_APP_EVENT))) return messages;
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) =>
      part.type === 'data' && part.name === MCP_APP_EVENT && part.data && typeof part.data === 'object'
        ? { ...part, data: { ...part.data, html: '', error: 'its app is not kept across a reload of the page' } }
        : part,
    ),
  }));
}

function write(client: ChatClient, stopped: ReadonlySet<string>): void {
  const snapshot = client.getSnapshot();
  const { activeRun, resumeToken } = snapshot;
  const messages = withoutAppDocuments(snapshot.messages);
  // Only markers of messages the chat still has are kept.
  const kept = messages.filter((message) => stopped.has(message.id)).map((message) => message.id);
  try {
    localStorage.setItem(KEY, JSON.stringify({ threadId: client.id, messages, activeRun, resumeToken, stopped: kept } satisfies SavedChat));
  } catch {
    // Over the storage quota (large attachments): the chat goes on, unsaved.
  }
}

/**
 * Keeps the chat saved while the component is mounted: at most every 250 ms while it changes, when
 * the stopped markers change, and when the page goes away.
 */
export function useSavedChat(client: ChatClient, stopped: ReadonlySet<string>): void {
  const latest = useRef(stopped);
  useEffect(() => {
    latest.current = stopped;
    if (client.getSnapshot().messages.length > 0) write(client, stopped);
  }, [client, stopped]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = undefined;
      write(client, latest.current);
    };
    const unsubscribe = client.subscribe(() => {
      timer ??= setTimeout(save, SAVE_EVERY_MS);
    });
    window.addEventListener('pagehide', save);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', save);
      if (timer !== undefined) save();
    };
  }, [client]);
}

/** A fresh chat id: each chat has its own, so what is granted "for this chat" stays in it. */
export function newChatId(): string {
  return `demo-${Math.random().toString(36).slice(2, 12)}`;
}
