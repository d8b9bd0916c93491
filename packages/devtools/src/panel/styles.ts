/** The panel's styles, scoped to its shadow root. Light and dark follow the system setting. */
export const panelStyles = `
:host { all: initial; }
.cw-root {
  --bg: #ffffff; --fg: #18181b; --muted: #6b7280; --line: #e5e7eb; --soft: #f4f4f5; --accent: #4f46e5;
  --good: #047857; --bad: #b91c1c; --warn: #b45309; --bar: #c7d2fe; --bar-strong: #4f46e5;
  font: 12px/1.45 ui-sans-serif, system-ui, sans-serif; color: var(--fg); background: var(--bg);
  height: 100%; display: flex; flex-direction: column; border: 1px solid var(--line); border-radius: 10px;
  box-shadow: 0 8px 30px rgba(0,0,0,.18); overflow: hidden; box-sizing: border-box;
}
@media (prefers-color-scheme: dark) {
  .cw-root { --bg: #17171c; --fg: #ececf1; --muted: #9ca3af; --line: #2e2e36; --soft: #22222a; --accent: #818cf8;
    --good: #34d399; --bad: #f87171; --warn: #fbbf24; --bar: #3730a3; --bar-strong: #818cf8; }
}
.cw-root *, .cw-root *::before, .cw-root *::after { box-sizing: border-box; }
.cw-frame { display: flex; flex-direction: column; height: 100%; min-height: 0; position: relative; }
.cw-root:has(.cw-frame[data-dock='bottom']) { border-radius: 0; border-width: 1px 0 0; }
.cw-root:has(.cw-frame[data-dock='right']) { border-radius: 0; border-width: 0 0 0 1px; }
.cw-header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; padding: 8px 10px; border-bottom: 1px solid var(--line); }
.cw-header h2 { font-size: 13px; margin: 0; flex: 1 1 6em; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.cw-header label { white-space: nowrap; }
.cw-savings { flex: 1 0 100%; display: flex; flex-wrap: wrap; align-items: center; gap: 2px 6px; margin: 0; font-variant-numeric: tabular-nums; position: relative; }
.cw-savings-figure { font-size: 13px; font-weight: 650; cursor: help; }
.cw-savings-caution { font-size: 12px; font-weight: 600; }
.cw-savings-more summary { list-style: none; cursor: pointer; color: var(--muted); width: 16px; height: 16px; line-height: 14px; text-align: center;
  border: 1px solid currentColor; border-radius: 50%; font: italic 600 11px/14px Georgia, serif; }
.cw-savings-more summary::-webkit-details-marker { display: none; }
.cw-savings-more[open] summary { color: var(--accent); }
.cw-savings-popover { position: absolute; z-index: 3; left: 0; right: 0; top: calc(100% + 4px); background: var(--bg); border: 1px solid var(--line);
  border-radius: 8px; padding: 8px 10px; box-shadow: 0 6px 20px rgba(0,0,0,.15); font-weight: 400; }
.cw-savings-popover p { margin: 0 0 4px; }
.cw-figure { margin: 0 0 8px; }
.cw-legend { display: flex; flex-wrap: wrap; gap: 4px 12px; color: var(--muted); margin-bottom: 4px; }
.cw-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.cw-axis { display: flex; color: var(--muted); font-size: 10px; }
.cw-axis span { flex: 1 1 0; text-align: center; min-width: 0; overflow: hidden; }
.cw-dock { display: inline-flex; gap: 2px; }
button.cw-icon { padding: 2px 7px; line-height: 1.2; }
button.cw-icon[aria-pressed='true'] { background: var(--accent); color: #fff; border-color: var(--accent); }
button.cw-icon:disabled { opacity: .4; cursor: not-allowed; }
.cw-grip { cursor: move; user-select: none; touch-action: none; color: var(--muted); font-size: 14px; padding: 0 2px; }
.cw-resize { position: absolute; z-index: 2; touch-action: none; background: transparent; }
.cw-resize:hover, .cw-resize:focus-visible { background: var(--accent); opacity: .5; }
.cw-resize-bottom { top: -3px; left: 0; right: 0; height: 7px; cursor: ns-resize; }
.cw-resize-right { left: -3px; top: 0; bottom: 0; width: 7px; cursor: ew-resize; }
.cw-resize-floating { right: 0; bottom: 0; width: 14px; height: 14px; cursor: nwse-resize;
  background: linear-gradient(135deg, transparent 50%, var(--line) 50%); }
h3 { font-size: 12px; margin: 14px 0 4px; }
.cw-tabs { display: flex; gap: 2px; padding: 0 8px; border-bottom: 1px solid var(--line); }
.cw-tab { font: inherit; border: 0; background: none; color: var(--muted); padding: 8px 10px; cursor: pointer; border-bottom: 2px solid transparent; }
.cw-tab[aria-selected='true'] { color: var(--fg); border-bottom-color: var(--accent); font-weight: 600; }
.cw-body { flex: 1; overflow: auto; padding: 10px; min-height: 0; }
button, select, input { font: inherit; color: var(--fg); }
button.cw-button, select, input { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
button.cw-button { cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.cw-toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px; }
.cw-chips { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; }
.cw-chip { background: var(--soft); border: 1px solid var(--line); border-radius: 999px; padding: 2px 8px; }
/* Wide tables scroll sideways inside the panel instead of being cut; headers wrap so columns stay narrow. */
.cw-body { container-type: inline-size; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { white-space: normal; }
td.cw-name { overflow-wrap: anywhere; }
@container (max-width: 640px) {
  table { display: block; overflow-x: auto; max-width: 100%; }
  th, td { padding: 3px 4px; }
}
/* A phone: the compact panel (a short bottom dock, one-line header, tabs that scroll). */
@media (max-width: 600px) {
  .cw-header { padding: 6px 8px; gap: 4px 6px; }
  .cw-header h2 { display: none; }
  .cw-tabs { overflow-x: auto; scrollbar-width: none; }
  .cw-tab { padding: 6px 8px; white-space: nowrap; }
  .cw-body { padding: 8px; }
  .cw-cards { grid-template-columns: repeat(auto-fit, minmax(120px, 1fr)); }
}
th { color: var(--muted); font-weight: 600; position: sticky; top: 0; background: var(--bg); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cw-name { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.cw-status-discovered { color: var(--good); font-weight: 600; }
.cw-status-undiscovered { color: var(--muted); }
.cw-status-eager { color: var(--fg); }
.cw-good { color: var(--good); }
.cw-bad { color: var(--bad); }
.cw-warn { color: var(--warn); }
.cw-muted { color: var(--muted); }
.cw-cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 8px; margin-bottom: 10px; }
.cw-card { background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
.cw-card strong { display: block; font-size: 16px; }
.cw-note { color: var(--muted); margin: 8px 0; }
.cw-chart { width: 100%; height: 120px; display: block; }
.cw-steps { display: flex; flex-wrap: wrap; gap: 4px; }
.cw-step { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 1px 6px; }
.cw-event { border-bottom: 1px solid var(--line); padding: 4px 0; }
.cw-event summary { cursor: pointer; }
pre { margin: 4px 0; padding: 6px; background: var(--soft); border-radius: 6px; white-space: pre-wrap; word-break: break-word; max-height: 280px; overflow: auto;
  font: 11px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.cw-empty { color: var(--muted); padding: 20px; text-align: center; }
.cw-record { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.cw-record-banner { flex: 1 0 100%; margin: 0; padding: 4px 8px; border-radius: 6px; background: var(--soft); border: 1px solid var(--accent); overflow-wrap: anywhere; }
.cw-record-error { flex: 1 0 100%; margin: 0; color: var(--bad); overflow-wrap: anywhere; }
tr.cw-group th { position: static; background: var(--soft); color: var(--fg); }
textarea.cw-copy { width: 100%; height: 120px; font: 11px ui-monospace, monospace; }
`;
