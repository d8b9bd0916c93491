import { createRoot } from 'react-dom/client';
import type { ChatClient } from '@chatwire/core';
import type { DevtoolsView, HistoryRecorder } from '@chatwire/core/shared';
import type { PanelDock, PanelLayout } from '../panelLayout.js';
import { Panel } from './Panel.js';
import { panelStyles } from './styles.js';
import { insightStyles } from './viewStyles.js';

/** What the shell passes to the panel. */
export interface PanelProps {
  readonly client: ChatClient | undefined;
  /** The turns recorded since the devtools mounted (the client keeps no history of its own). */
  readonly history: HistoryRecorder | undefined;
  readonly catalogUrl: string | undefined;
  /** The server's grants endpoint: the Timeline lists the chat's grants from it, with Revoke. */
  readonly grantsUrl: string | undefined;
  readonly onClose: (() => void) | undefined;
  /** Where the panel sits in this viewport (undefined when embedded in the page). */
  readonly layout: PanelLayout | undefined;
  /**
   * The docks that leave the page its minimum room in this viewport; the others are offered disabled.
   * Defaults to all three.
   */
  readonly docks?: ReadonlySet<PanelDock> | undefined;
  /** The page's minimum width beside a right dock, in px (said on a dock that does not fit). */
  readonly minAppWidth?: number | undefined;
  /** Moves, docks or resizes the panel (the shell fits it to the viewport and remembers it). */
  readonly onLayout: (change: Partial<PanelLayout>) => void;
  /** The views other packages contribute, in the app's order. */
  readonly views: readonly DevtoolsView[] | undefined;
}

/** A mounted panel. */
export interface PanelHandle {
  /** Renders the panel again with new props, unless they are the same (it keeps its own state: tab, filters). */
  update(props: PanelProps): void;
  unmount(): void;
}

/** Whether two props render the same panel: each prop the same value (the views, item by item: apps often pass a new list). */
function samePanelProps(before: PanelProps, next: PanelProps): boolean {
  for (const key of Object.keys(next) as (keyof PanelProps)[]) {
    if (key === 'views') continue;
    if (!Object.is(before[key], next[key])) return false;
  }
  if (Object.keys(before).length !== Object.keys(next).length) return false;
  const [a, b] = [before.views ?? [], next.views ?? []];
  return a.length === b.length && a.every((view, index) => view === b[index]);
}

/**
 * Mounts the panel inside `host`'s shadow root, as its own React root: the panel's styles cannot
 * leak into the app and the app's styles cannot reach the panel.
 */
export function mountPanel(host: HTMLElement, props: PanelProps): PanelHandle {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();
  const style = document.createElement('style');
  style.textContent = panelStyles + insightStyles;
  const container = document.createElement('div');
  container.className = 'cw-root';
  shadow.append(style, container);
  const root = createRoot(container);
  let rendered = props;
  root.render(<Panel {...props} />);
  return {
    update(next) {
      // The shell renders with the app (every commit of the component that holds it, once a frame while an
      // answer streams) and hands its props on each time: the panel renders again only when one changed.
      if (samePanelProps(rendered, next)) return;
      rendered = next;
      root.render(<Panel {...next} />);
    },
    unmount() {
      // The shell unmounts the panel from its own effect cleanup, which can run while the panel's
      // root is still rendering (closing from the panel's own button): React refuses a synchronous
      // unmount then ("Attempted to synchronously unmount a root..."), so it happens right after.
      queueMicrotask(() => {
        root.unmount();
        // A panel mounted again in the meantime replaced the shadow root's content: leave it.
        if (shadow.contains(container)) shadow.replaceChildren();
      });
    },
  };
}
