import type { ActiveRun, ChatClient, ChatMessage } from '@chatwire/core';
import { useEffect } from 'react';

/**
 * The demo chat kept in localStorage, so a reload continues it: the messages, and for resumable
 * streams the run in flight with the last event applied (`activeRun`) and the chat's resume token.
 * All three come from one snapshot, so the saved messages and `lastEventId` always agree: after a
 * reload, `useChat({ resume: true })` reads the run's events after that id, and none twice.
 */
export interface SavedChat {
  readonly messages: readonly ChatMessage[];
  readonly activeRun?: ActiveRun;
  readonly resumeToken?: string;
}

const KEY = 'chatwire-demo-chat';

/** How often, at most, a streaming chat is written (a reload writes the latest state at once, on `pagehide`). */
const SAVE_EVERY_MS = 250;

/** The saved chat, if there is one that reads back (anything else is ignored, never an error). */
export function loadSavedChat(): SavedChat | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as SavedChat | null;
    return saved && Array.isArray(saved.messages) ? saved : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the saved chat. */
export function clearSavedChat(): void {
  localStorage.removeItem(KEY);
}

function write(client: ChatClient): void {
  const { messages, activeRun, resumeToken } = client.getSnapshot();
  try {
    localStorage.setItem(KEY, JSON.stringify({ messages, activeRun, resumeToken } satisfies SavedChat));
  } catch {
    // Over the storage quota (large attachments): the chat goes on, unsaved.
  }
}

/** Keeps the chat saved while the component is mounted: at most every 250 ms while it changes, and when the page goes away. */
export function useSavedChat(client: ChatClient): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = undefined;
      write(client);
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
