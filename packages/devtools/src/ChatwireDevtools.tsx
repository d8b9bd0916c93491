import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { recordHistory, type ChatClient, type HistoryRecorder } from '@chatwire/core';
import type { PanelHandle } from './panel/mountPanel.js';

/** Props of {@link ChatwireDevtools}. */
export interface ChatwireDevtoolsProps {
  /** The chat to inspect (`useChat(...).client`, or `registry.get(id)` of a `@chatwire/react` chat registry). */
  readonly client?: ChatClient;
  /** The server's tool catalog (`GET`, e.g. `/api/tools`), for kinds and token counts. Defaults to none. */
  readonly catalogUrl?: string;
  /** `floating` (default): a toggle button in a corner. `embedded`: the panel in place, always open. */
  readonly mode?: 'floating' | 'embedded';
  /** Open at first render (floating mode). Defaults to `false`. */
  readonly initialOpen?: boolean;
  /** Corner of the toggle button. Defaults to `bottom-right`. */
  readonly position?: 'bottom-right' | 'bottom-left';
}

const buttonStyle = (position: 'bottom-right' | 'bottom-left'): CSSProperties => ({
  position: 'fixed',
  bottom: 16,
  [position === 'bottom-right' ? 'right' : 'left']: 16,
  zIndex: 2147483000,
  font: '600 12px/1 system-ui, sans-serif',
  padding: '8px 12px',
  borderRadius: 999,
  border: '1px solid #6366f1',
  background: '#4f46e5',
  color: '#fff',
  cursor: 'pointer',
  boxShadow: '0 2px 8px rgba(0,0,0,.25)',
});

const floatingHost: CSSProperties = { position: 'fixed', right: 16, bottom: 60, width: 'min(720px, calc(100vw - 32px))', height: 'min(560px, calc(100vh - 96px))', zIndex: 2147483000 };
const embeddedHost: CSSProperties = { width: '100%', height: '100%', minHeight: 360 };

/**
 * The devtools panel for a chat: tools (sent, discovered, undiscovered), token savings per turn,
 * the timeline of every tool call, and the raw events. The panel's code loads on first open, lives
 * in its own shadow root (its styles never touch the app), and costs nothing while closed.
 */
export function ChatwireDevtools(props: ChatwireDevtoolsProps) {
  const embedded = props.mode === 'embedded';
  const [open, setOpen] = useState(embedded || (props.initialOpen ?? false));
  const host = useRef<HTMLDivElement>(null);
  const { client, catalogUrl } = props;

  // The client records nothing itself: devtools keeps the history from the moment it mounts, so a
  // panel opened later still shows the earlier turns.
  const [history, setHistory] = useState<HistoryRecorder>();
  useEffect(() => {
    if (!client) return;
    const recorder = recordHistory(client);
    setHistory(recorder);
    return () => recorder.stop();
  }, [client]);

  useEffect(() => {
    if (!open || !host.current) return;
    const element = host.current;
    let handle: PanelHandle | undefined;
    let cancelled = false;
    void import('./panel/mountPanel.js').then(({ mountPanel }) => {
      if (cancelled) return;
      handle = mountPanel(element, { client, history, catalogUrl, onClose: embedded ? undefined : () => setOpen(false) });
    });
    return () => {
      cancelled = true;
      handle?.unmount();
    };
  }, [open, client, history, catalogUrl, embedded]);

  if (embedded) return <div ref={host} data-chatwire-devtools="" style={embeddedHost} />;
  return (
    <>
      <button type="button" aria-label="Chatwire devtools" aria-expanded={open} onClick={() => setOpen((value) => !value)} style={buttonStyle(props.position ?? 'bottom-right')}>
        Chatwire
      </button>
      {open ? <div ref={host} data-chatwire-devtools="" style={floatingHost} /> : null}
    </>
  );
}
