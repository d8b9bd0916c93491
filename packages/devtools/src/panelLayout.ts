import type { CSSProperties } from 'react';

/** Where the open panel sits: docked along the bottom or the right edge, or floating over the page. */
export type PanelDock = 'bottom' | 'right' | 'floating';

/** The panel's place and size as the person chose them, remembered across reloads (localStorage). */
export interface PanelLayout {
  readonly dock: PanelDock;
  /** Height of the bottom dock, in px. */
  readonly bottomHeight: number;
  /** Width of the right dock, in px. */
  readonly rightWidth: number;
  /** The floating window's box, in px from the viewport's top-left corner. */
  readonly floating: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** Whether the panel was open when the page was left. */
  readonly open: boolean;
}

/** The room the page keeps beside a docked panel, in px. */
export interface AppSize {
  readonly width: number;
  readonly height: number;
}

/** The smallest a docked or floating panel may get, in px. */
const MIN_PANEL_SIZE = { width: 300, height: 180 } as const;

/**
 * The least room a docked panel leaves the page, in px. Width 768: a docked panel does not change the
 * viewport, so the page keeps the layout its media queries chose for the whole window; 768 px is the
 * narrowest width common layouts draw their desktop layout at (the `md` breakpoint of Tailwind and
 * Bootstrap), so a page never gets less than that layout was made for. Height 320: the header, a few
 * lines of conversation and the composer of a chat (the demo's need 300 px at a phone's font size).
 */
export const DEFAULT_MIN_APP_SIZE: AppSize = { width: 768, height: 320 };

/** The largest the right dock may be in a window `width` wide, leaving the page `minApp.width`. */
const rightRoom = (width: number, minApp: AppSize) => width - minApp.width;
/** The largest the bottom dock may be in a window `height` tall, leaving the page `minApp.height`. */
const bottomRoom = (height: number, minApp: AppSize) => height - minApp.height;

/**
 * The docks that fit a viewport: the right dock when the page keeps `minApp.width` beside the
 * narrowest panel, the bottom dock when it keeps `minApp.height` above the lowest one. Floating
 * (over the page) always fits.
 */
export function fittingDocks(viewport: { width: number; height: number }, minApp: AppSize = DEFAULT_MIN_APP_SIZE): ReadonlySet<PanelDock> {
  const docks = new Set<PanelDock>(['floating']);
  if (rightRoom(viewport.width, minApp) >= MIN_PANEL_SIZE.width) docks.add('right');
  if (bottomRoom(viewport.height, minApp) >= MIN_PANEL_SIZE.height) docks.add('bottom');
  return docks;
}

/**
 * The first layout: docked on the right where that leaves the page its minimum width, else at the
 * bottom. On a phone (under 600 px wide) the bottom dock is compact: a third of the height, so the
 * chat keeps most of the screen. On the right it is wide enough for the Tools table's columns
 * (560 px when the window has room for it).
 */
export function defaultLayout(
  viewport: { width: number; height: number },
  dock?: PanelDock,
  minApp: AppSize = DEFAULT_MIN_APP_SIZE,
): PanelLayout {
  const phone = viewport.width < 600;
  return {
    dock: dock ?? (fittingDocks(viewport, minApp).has('right') ? 'right' : 'bottom'),
    bottomHeight: Math.round(Math.max(MIN_PANEL_SIZE.height, viewport.height * (phone ? 0.33 : 0.4))),
    rightWidth: Math.round(Math.min(560, Math.max(MIN_PANEL_SIZE.width, viewport.width * 0.44))),
    floating: {
      x: Math.max(8, viewport.width - 16 - 720),
      y: 64,
      width: Math.min(720, viewport.width - 32),
      height: Math.min(520, viewport.height - 96),
    },
    open: false,
  };
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The saved layout, checked field by field (a stale or hand-edited entry never breaks the panel),
 * over `fallback` for anything missing or invalid.
 */
export function readLayout(saved: string | null, fallback: PanelLayout): PanelLayout {
  if (!saved) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(saved);
  } catch {
    return fallback;
  }
  if (!value || typeof value !== 'object') return fallback;
  const record = value as Record<string, unknown>;
  const box = (record['floating'] ?? {}) as Record<string, unknown>;
  return {
    dock: record['dock'] === 'bottom' || record['dock'] === 'right' || record['dock'] === 'floating' ? record['dock'] : fallback.dock,
    bottomHeight: isNumber(record['bottomHeight']) ? record['bottomHeight'] : fallback.bottomHeight,
    rightWidth: isNumber(record['rightWidth']) ? record['rightWidth'] : fallback.rightWidth,
    floating: {
      x: isNumber(box['x']) ? box['x'] : fallback.floating.x,
      y: isNumber(box['y']) ? box['y'] : fallback.floating.y,
      width: isNumber(box['width']) ? box['width'] : fallback.floating.width,
      height: isNumber(box['height']) ? box['height'] : fallback.floating.height,
    },
    open: typeof record['open'] === 'boolean' ? record['open'] : fallback.open,
  };
}

const clampTo = (value: number, min: number, max: number): number => Math.round(Math.min(Math.max(value, min), Math.max(min, max)));

/** The layout fitted into the viewport: a panel never grows past 90% of it, nor floats off screen. */
export function fitLayout(layout: PanelLayout, viewport: { width: number; height: number }): PanelLayout {
  const width = clampTo(layout.floating.width, MIN_PANEL_SIZE.width, viewport.width - 16);
  const height = clampTo(layout.floating.height, MIN_PANEL_SIZE.height, viewport.height - 16);
  return {
    ...layout,
    bottomHeight: clampTo(layout.bottomHeight, MIN_PANEL_SIZE.height, viewport.height * 0.9),
    rightWidth: clampTo(layout.rightWidth, Math.min(MIN_PANEL_SIZE.width, viewport.width), viewport.width * 0.9),
    floating: {
      width,
      height,
      x: clampTo(layout.floating.x, 0, viewport.width - width),
      y: clampTo(layout.floating.y, 0, viewport.height - height),
    },
  };
}

/**
 * Where the panel goes in this viewport: the person's dock when it fits (see {@link fittingDocks}),
 * else the bottom, else floating over the page; a docked panel no larger than leaves the page its
 * minimum. The person's layout is not changed: widen the window again and the panel goes back to
 * the dock and size they chose.
 */
export function placeLayout(
  layout: PanelLayout,
  viewport: { width: number; height: number },
  minApp: AppSize = DEFAULT_MIN_APP_SIZE,
): PanelLayout {
  const fitting = fittingDocks(viewport, minApp);
  const dock: PanelDock = fitting.has(layout.dock) ? layout.dock : fitting.has('bottom') ? 'bottom' : 'floating';
  return {
    ...layout,
    dock,
    rightWidth: Math.round(Math.max(MIN_PANEL_SIZE.width, Math.min(layout.rightWidth, rightRoom(viewport.width, minApp)))),
    bottomHeight: Math.round(Math.max(MIN_PANEL_SIZE.height, Math.min(layout.bottomHeight, bottomRoom(viewport.height, minApp)))),
  };
}

/** The host element's box for a (placed) layout, fixed to the viewport. */
export function hostStyle(layout: PanelLayout): CSSProperties {
  const base: CSSProperties = { position: 'fixed', zIndex: 2147483000 };
  switch (layout.dock) {
    case 'bottom':
      return { ...base, left: 0, right: 0, bottom: 0, height: layout.bottomHeight };
    case 'right':
      return { ...base, top: 0, right: 0, bottom: 0, width: layout.rightWidth };
    case 'floating':
      return { ...base, left: layout.floating.x, top: layout.floating.y, width: layout.floating.width, height: layout.floating.height };
  }
}

/**
 * The room a docked panel takes from the page: the page gets it back as body padding and as CSS
 * variables (`--chatwire-devtools-bottom`, `--chatwire-devtools-right`) that full-height layouts
 * subtract, so a docked panel never covers the app's controls. A floating panel takes none.
 */
export function reservedSpace(layout: PanelLayout | undefined): { bottom: number; right: number } {
  if (!layout) return { bottom: 0, right: 0 };
  return { bottom: layout.dock === 'bottom' ? layout.bottomHeight : 0, right: layout.dock === 'right' ? layout.rightWidth : 0 };
}
