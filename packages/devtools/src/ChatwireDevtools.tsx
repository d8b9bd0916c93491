import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { type ChatClient } from '@chatwire/core';
import { recordHistory, type DevtoolsView, type HistoryRecorder } from '@chatwire/core/shared';
import type { PanelHandle, PanelProps } from './panel/mountPanel.js';
import {
  DEFAULT_MIN_APP_SIZE,
  defaultLayout,
  fitLayout,
  fittingDocks,
  hostStyle,
  placeLayout,
  readLayout,
  reservedSpace,
  type AppSize,
  type PanelDock,
  type PanelLayout,
} from './panelLayout.js';

/** Props of {@link ChatwireDevtools}. */
export interface ChatwireDevtoolsProps {
  /** The chat to inspect (`useChat(...).client`, or `registry.get(id)` of a `@chatwire/react` chat registry). */
  readonly client?: ChatClient;
  /** The server's tool catalog (`GET`, e.g. `/api/tools`), for kinds and token counts. Defaults to none. */
  readonly catalogUrl?: string;
  /**
   * The server's grants endpoint (`createGrantsHandler`, e.g. `/api/grants`): the Timeline lists the
   * chat's grants from it (`GET ?threadId=`) and can revoke one (`POST { threadId, revoke }`). Defaults
   * to none: the Timeline then shows only the grants the chat's stream named.
   */
  readonly grantsUrl?: string;
  /**
   * `floating` (default): a toggle button opens the panel, which docks at the bottom or on the right,
   * or floats, as the user chooses. `embedded`: the panel in place, always open.
   */
  readonly mode?: 'floating' | 'embedded';
  /** Open at first render (floating mode). Defaults to the state the user left it in, else `false`. */
  readonly initialOpen?: boolean;
  /**
   * Where the toggle button sits. Defaults to `right-edge`: a slim tab halfway up the right edge,
   * away from the headers and composers where apps keep their primary controls.
   */
  readonly position?: 'right-edge' | 'bottom-right' | 'bottom-left';
  /**
   * Where the panel opens the first time; the user's later choice is remembered. Defaults to `right`
   * where that leaves the page `minAppSize.width` (windows 1068 px wide or more by default), else
   * `bottom`.
   */
  readonly initialDock?: PanelDock;
  /**
   * The least room a docked panel leaves the page, in px. A window too narrow for the right dock
   * beside it shows the panel at the bottom, one too short for that floats it over the page, and a
   * docked panel never grows past it; the person's chosen dock and size are kept and come back
   * when the window has room again. Defaults to `{ width: 768, height: 320 }`: 768 px is the
   * narrowest width common layouts draw their desktop layout at (a docked panel does not change the
   * viewport their media queries read); 320 px holds a chat's header, a few lines and its composer.
   */
  readonly minAppSize?: Partial<AppSize>;
  /** The localStorage key the layout (dock, sizes, open) is kept under. Defaults to `chatwire-devtools`. */
  readonly storageKey?: string;
  /**
   * Views other packages contribute, each a tab after the panel's own, shown when the view says it applies
   * to the chat: for example `codeModeDevtoolsView` from `@chatwire/code-mode/client`. Each view's code
   * loads when the panel opens. Defaults to none.
   */
  readonly views?: readonly DevtoolsView[];
}

const TOGGLE_EDGE_WIDTH = 22;

const toggleStyle = (position: NonNullable<ChatwireDevtoolsProps['position']>): CSSProperties => {
  const base: CSSProperties = {
    position: 'fixed',
    zIndex: 2147483000,
    font: '600 12px/1 system-ui, sans-serif',
    border: '1px solid #6366f1',
    background: '#4f46e5',
    color: '#fff',
    cursor: 'pointer',
    boxShadow: '0 2px 8px rgba(0,0,0,.25)',
  };
  if (position === 'right-edge') {
    return {
      ...base,
      right: 0,
      top: '50%',
      transform: 'translateY(-50%)',
      width: TOGGLE_EDGE_WIDTH,
      padding: '10px 0',
      writingMode: 'vertical-rl',
      borderRight: 0,
      borderRadius: '8px 0 0 8px',
    };
  }
  return { ...base, bottom: 16, [position === 'bottom-right' ? 'right' : 'left']: 16, padding: '8px 12px', borderRadius: 999 };
};

const embeddedHost: CSSProperties = { width: '100%', height: '100%', minHeight: 360 };

const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });

function loadLayout(storageKey: string, initialDock: PanelDock | undefined, minApp: AppSize): PanelLayout {
  const fallback = defaultLayout(viewport(), initialDock, minApp);
  let saved: string | null = null;
  try {
    saved = window.localStorage.getItem(storageKey);
  } catch {
    // Storage can be blocked (privacy settings): the panel then starts from its defaults each time.
  }
  return fitLayout(readLayout(saved, fallback), viewport());
}

/** Gives a docked panel's room back to the page (body padding and CSS variables), until undone. */
function reserve(space: { bottom: number; right: number }): () => void {
  const { body, documentElement: root } = document;
  const before = { bottom: body.style.paddingBottom, right: body.style.paddingRight };
  body.style.paddingBottom = space.bottom ? `${space.bottom}px` : before.bottom;
  body.style.paddingRight = space.right ? `${space.right}px` : before.right;
  root.style.setProperty('--chatwire-devtools-bottom', `${space.bottom}px`);
  root.style.setProperty('--chatwire-devtools-right', `${space.right}px`);
  return () => {
    body.style.paddingBottom = before.bottom;
    body.style.paddingRight = before.right;
    root.style.removeProperty('--chatwire-devtools-bottom');
    root.style.removeProperty('--chatwire-devtools-right');
  };
}

/**
 * The devtools panel for a chat: tools (sent, discovered, undiscovered), token savings per turn,
 * the timeline of every tool call, and the raw events. The panel's code loads on first open, lives
 * in its own shadow root (its styles never touch the app), and costs nothing while closed. It docks
 * at the bottom or on the right (giving the page its room back, so it never covers the app, and
 * never leaving it less than `minAppSize`), or floats; it is resizable, and its place and size are
 * remembered across reloads.
 */
export function ChatwireDevtools(props: ChatwireDevtoolsProps) {
  const embedded = props.mode === 'embedded';
  const storageKey = props.storageKey ?? 'chatwire-devtools';
  const [layout, setLayout] = useState<PanelLayout | undefined>(undefined);
  const [view, setView] = useState<{ width: number; height: number } | undefined>(undefined);
  const minWidth = props.minAppSize?.width ?? DEFAULT_MIN_APP_SIZE.width;
  const minHeight = props.minAppSize?.height ?? DEFAULT_MIN_APP_SIZE.height;
  const [open, setOpen] = useState(embedded || (props.initialOpen ?? false));
  const host = useRef<HTMLDivElement>(null);
  const panel = useRef<PanelHandle | undefined>(undefined);
  const { client, catalogUrl, grantsUrl, views } = props;
  const position = props.position ?? 'right-edge';

  // The saved layout is read after mounting (never during a server render), with its open state.
  const { initialOpen, initialDock } = props;
  useEffect(() => {
    if (embedded) return;
    const loaded = loadLayout(storageKey, initialDock, { width: minWidth, height: minHeight });
    setLayout(loaded);
    setView(viewport());
    if (initialOpen === undefined && loaded.open) setOpen(true);
  }, [embedded, storageKey, initialOpen, initialDock, minWidth, minHeight]);

  useEffect(() => {
    if (!layout) return;
    try {
      window.localStorage.setItem(storageKey, JSON.stringify({ ...layout, open }));
    } catch {
      // Not remembered when storage is blocked; the panel works the same.
    }
  }, [layout, open, storageKey]);

  useEffect(() => {
    if (!layout) return;
    const onResize = () => {
      setView(viewport());
      setLayout((current) => (current ? fitLayout(current, viewport()) : current));
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [layout]);

  // Where the panel goes in this window: the person's layout, moved or shrunk so the page keeps its minimum.
  const minApp = useMemo(() => ({ width: minWidth, height: minHeight }), [minWidth, minHeight]);
  const placed = useMemo(() => (layout && view ? placeLayout(layout, view, minApp) : undefined), [layout, view, minApp]);
  const docks = useMemo(() => (view ? fittingDocks(view, minApp) : undefined), [view, minApp]);
  const space = open ? reservedSpace(placed) : { bottom: 0, right: 0 };
  const { bottom: reservedBottom, right: reservedRight } = space;
  useEffect(
    () => (reservedBottom || reservedRight ? reserve({ bottom: reservedBottom, right: reservedRight }) : undefined),
    [reservedBottom, reservedRight],
  );

  // While the edge tab shows, pages can keep their content clear of it with this variable.
  const edgeTab = !embedded && !open && position === 'right-edge';
  useEffect(() => {
    if (!edgeTab) return;
    document.documentElement.style.setProperty('--chatwire-devtools-toggle-right', `${TOGGLE_EDGE_WIDTH}px`);
    return () => {
      document.documentElement.style.removeProperty('--chatwire-devtools-toggle-right');
    };
  }, [edgeTab]);

  // The devtools records the history from the moment it mounts (the client keeps none), so a
  // panel opened later still shows the earlier turns.
  const [history, setHistory] = useState<HistoryRecorder>();
  useEffect(() => {
    if (!client) return;
    const recorder = recordHistory(client);
    setHistory(recorder);
    return () => recorder.stop();
  }, [client]);

  const onLayout = useCallback((change: Partial<PanelLayout>) => {
    setLayout((current) => (current ? fitLayout({ ...current, ...change }, viewport()) : current));
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const panelProps: PanelProps = {
    client,
    history,
    catalogUrl,
    grantsUrl,
    onClose: embedded ? undefined : close,
    layout: embedded ? undefined : placed,
    docks,
    minAppWidth: minWidth,
    onLayout,
    views,
  };
  const latestProps = useRef(panelProps);
  latestProps.current = panelProps;

  const ready = open && (embedded || placed !== undefined);
  useEffect(() => {
    if (!ready || !host.current) return;
    const element = host.current;
    let cancelled = false;
    void import('./panel/mountPanel.js').then(({ mountPanel }) => {
      if (!cancelled) panel.current = mountPanel(element, latestProps.current);
    });
    return () => {
      cancelled = true;
      panel.current?.unmount();
      panel.current = undefined;
    };
  }, [ready]);

  // New props reach the mounted panel without remounting it (its tab and filters stay).
  useEffect(() => {
    panel.current?.update(panelProps);
  });

  if (embedded) return <div ref={host} data-chatwire-devtools="" style={embeddedHost} />;
  return (
    <>
      {open ? null : (
        <button
          type="button"
          aria-label="Chatwire devtools"
          aria-expanded={false}
          onClick={() => setOpen(true)}
          style={toggleStyle(position)}
        >
          Chatwire
        </button>
      )}
      {ready && placed && layout ? (
        <div ref={host} data-chatwire-devtools="" data-dock={placed.dock} data-chosen-dock={layout.dock} style={hostStyle(placed)} />
      ) : null}
    </>
  );
}
