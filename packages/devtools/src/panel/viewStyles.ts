/** Styles of the Search, Health, Unused and Time travel views (added after the panel's own). */
export const insightStyles = `
.cw-tabs { overflow-x: auto; scrollbar-width: thin; }
.cw-tab { white-space: nowrap; }
input.cw-grow { flex: 1 1 14em; min-width: 8em; }
input.cw-narrow { width: 5em; }
tr.cw-cut td { color: var(--warn); font-weight: 600; border-bottom: 2px dashed var(--warn); padding-top: 6px; }
tr.cw-expected td { background: var(--soft); box-shadow: inset 3px 0 0 var(--accent); }
.cw-score { display: inline-block; width: 40px; height: 6px; margin-right: 6px; border-radius: 3px; vertical-align: middle;
  background: linear-gradient(90deg, var(--bar-strong) calc(var(--score) * 100%), var(--bar) 0); }
.cw-nowrap, table[data-testid='playground-results'] td.num { white-space: nowrap; }
.cw-match { display: inline-block; margin: 0 8px 2px 0; white-space: nowrap; }
.cw-travel-message { padding: 4px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.cw-travel-call { margin: 2px 0 2px 12px; }
tr.cw-selected td { background: var(--soft); font-weight: 600; }
button.cw-link { background: none; border: 0; padding: 0; color: var(--fg); cursor: pointer; text-align: left; font: inherit; overflow-wrap: anywhere; }
button.cw-link:hover { color: var(--accent); text-decoration: underline; }
[data-testid='devtools-travel'] > input.cw-grow { width: 100%; margin-bottom: 6px; }
`;
