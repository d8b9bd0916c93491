import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { PanelDock, PanelLayout } from '../panelLayout.js';

type OnLayout = (change: Partial<PanelLayout>) => void;

const DOCKS: { dock: PanelDock; label: string; title: string }[] = [
  { dock: 'bottom', label: '▁', title: 'Dock at the bottom' },
  { dock: 'right', label: '▕', title: 'Dock on the right' },
  { dock: 'floating', label: '❐', title: 'Float over the page' },
];

/** Why a dock is offered disabled: it would leave the page less than its minimum room. */
const noRoom = (dock: PanelDock, minAppWidth: number | undefined) =>
  dock === 'right'
    ? `No room on the right: the page keeps at least ${minAppWidth ?? 'its minimum'} px of width`
    : 'No room at the bottom: the page keeps its minimum height';

/**
 * The three places the panel can be, as toggle buttons; `dock` is where it is now. A dock that would
 * leave the page less than its minimum room (`docks` lacks it) is disabled and says why.
 */
export function DockControls(props: {
  dock: PanelDock;
  docks?: ReadonlySet<PanelDock> | undefined;
  minAppWidth?: number | undefined;
  onLayout: OnLayout;
}) {
  return (
    <div className="cw-dock" role="group" aria-label="Dock">
      {DOCKS.map((entry) => {
        const fits = props.docks?.has(entry.dock) ?? true;
        return (
          <button
            key={entry.dock}
            type="button"
            className="cw-button cw-icon"
            aria-label={entry.title}
            title={fits ? entry.title : noRoom(entry.dock, props.minAppWidth)}
            aria-pressed={props.dock === entry.dock}
            disabled={!fits}
            onClick={() => props.onLayout({ dock: entry.dock })}
          >
            {entry.label}
          </button>
        );
      })}
    </div>
  );
}

/** Follows one pointer drag: `move` gets the distance from where it started. */
function useDrag(move: (dx: number, dy: number) => void) {
  const start = useRef<{ x: number; y: number } | undefined>(undefined);
  return {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      start.current = { x: event.clientX, y: event.clientY };
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (start.current) move(event.clientX - start.current.x, event.clientY - start.current.y);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      start.current = undefined;
      if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    },
  };
}

/**
 * The edge that resizes the panel: the top edge of the bottom dock, the left edge of the right
 * dock, the bottom-right corner of the floating window. Drag it, or focus it and use the arrow keys.
 */
export function ResizeHandle(props: { layout: PanelLayout; onLayout: OnLayout }) {
  const { layout, onLayout } = props;
  const origin = useRef(layout);
  const drag = useDrag((dx, dy) => {
    const from = origin.current;
    if (from.dock === 'bottom') onLayout({ bottomHeight: from.bottomHeight - dy });
    else if (from.dock === 'right') onLayout({ rightWidth: from.rightWidth - dx });
    else onLayout({ floating: { ...from.floating, width: from.floating.width + dx, height: from.floating.height + dy } });
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 64 : 16;
    const grow = { ArrowUp: 1, ArrowLeft: 1, ArrowDown: -1, ArrowRight: -1 }[event.key];
    if (grow === undefined) return;
    event.preventDefault();
    if (layout.dock === 'bottom') onLayout({ bottomHeight: layout.bottomHeight + grow * step });
    else if (layout.dock === 'right') onLayout({ rightWidth: layout.rightWidth + grow * step });
    else
      onLayout({
        floating: { ...layout.floating, width: layout.floating.width - grow * step, height: layout.floating.height - grow * step },
      });
  };
  const size = layout.dock === 'bottom' ? layout.bottomHeight : layout.dock === 'right' ? layout.rightWidth : layout.floating.width;
  return (
    <div
      className={`cw-resize cw-resize-${layout.dock}`}
      role="separator"
      tabIndex={0}
      aria-label="Resize devtools"
      aria-orientation={layout.dock === 'bottom' ? 'horizontal' : 'vertical'}
      aria-valuenow={size}
      data-testid="devtools-resize"
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        origin.current = layout;
        drag.onPointerDown(event);
      }}
      onPointerMove={drag.onPointerMove}
      onPointerUp={drag.onPointerUp}
      onPointerCancel={drag.onPointerUp}
    />
  );
}

/** The grip that moves the floating window (drag it). */
export function MoveHandle(props: { layout: PanelLayout; onLayout: OnLayout }) {
  const origin = useRef(props.layout.floating);
  const drag = useDrag((dx, dy) => props.onLayout({ floating: { ...origin.current, x: origin.current.x + dx, y: origin.current.y + dy } }));
  return (
    <span
      className="cw-grip"
      aria-hidden="true"
      title="Drag to move"
      data-testid="devtools-move"
      onPointerDown={(event) => {
        origin.current = props.layout.floating;
        drag.onPointerDown(event);
      }}
      onPointerMove={drag.onPointerMove}
      onPointerUp={drag.onPointerUp}
      onPointerCancel={drag.onPointerUp}
    >
      ⠿
    </span>
  );
}
