import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { TOOL_PROGRESS_EVENT, chatStatusWords, fetchToolCatalog, type ChatClient, type ChatSnapshot } from '@chatwire/core';
import type { HistoryRecorder, HistoryTurn, ToolCatalogSearch, ToolServerStatus } from '@chatwire/core/shared';
import { buildTokensView, savingsAtAGlance, type PartialToolCatalogEntry } from '../viewModel/index.js';
import type { PanelProps } from './mountPanel.js';
import { DockControls, MoveHandle, ResizeHandle } from './PanelFrame.js';
import { SavingsSummary } from './SavingsSummary.js';
import { EventsView } from './views/EventsView.js';
import { TimelineView } from './views/TimelineView.js';
import { TokensView } from './views/TokensView.js';
import { DiscoverySearchesView } from './views/DiscoverySearchesView.js';
import { ExtensionView } from './views/ExtensionView.js';
import { ToolsView } from './views/ToolsView.js';
import { McpView } from './views/McpView.js';
import { RequestsView } from './requests/RequestsView.js';
import { RecordControls, type OpenedRecord } from './RecordControls.js';
import { chatRecordOf, downloadChatRecord, viewOfRecord } from './chatRecordFile.js';
import { isViewAvailable, useExtensionViews, viewBlocks } from './useExtensionViews.js';
import { PlaygroundView } from './playground/PlaygroundView.js';
import { HealthView } from './health/HealthView.js';
import { TimeTravelView } from './timeTravel/TimeTravelView.js';
import { UnusedToolsView } from './unused/UnusedToolsView.js';

const TABS = [
  { id: 'tools', label: 'Tools' },
  { id: 'tokens', label: 'Tokens' },
  { id: 'requests', label: 'Requests' },
  { id: 'timeline', label: 'Timeline' },
  { id: 'events', label: 'Events' },
  { id: 'search', label: 'Search' },
  { id: 'health', label: 'Health' },
  { id: 'unused', label: 'Unused' },
  { id: 'travel', label: 'Time travel' },
  { id: 'mcp', label: 'MCP' },
] as const;
/** A built-in tab, or `view:<id>` for a view another package contributed. */
type TabId = (typeof TABS)[number]['id'] | `view:${string}`;

/** The tabs that show the recorded history (its turns' requests, events and app messages). */
const HISTORY_TABS: ReadonlySet<TabId> = new Set(['requests', 'timeline', 'events']);
const NO_TURNS: readonly HistoryTurn[] = [];

/**
 * What the panel reads: the latest snapshot (from the inspection stream, starting from one
 * `getSnapshot()`), refreshed at most 5 times a second however fast the chat changes, and the
 * recorded history, read (a copy of every kept turn) only while a tab that shows it is open.
 */
function useChatState(
  client: ChatClient | undefined,
  recorder: HistoryRecorder | undefined,
  showsHistory: boolean,
): { snapshot: ChatSnapshot | undefined; history: readonly HistoryTurn[] } {
  const [state, setState] = useState(() => ({ snapshot: client?.getSnapshot(), version: 0 }));
  useEffect(() => {
    if (!client) return;
    let latest = client.getSnapshot();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const publish = () => setState((before) => ({ snapshot: latest, version: before.version + 1 }));
    const stopInspecting = client.inspect((event) => {
      if (event.type === 'snapshot') latest = event.snapshot;
      else if (event.type !== 'event' && event.type !== 'request' && event.type !== 'turn') return;
      timer ??= setTimeout(() => {
        timer = undefined;
        publish();
      }, 200);
    });
    publish();
    return () => {
      stopInspecting();
      clearTimeout(timer);
    };
  }, [client, recorder]);
  const { version } = state;
  const history = useMemo(
    () => (showsHistory ? (recorder?.turns() ?? NO_TURNS) : NO_TURNS),
    // `version` changes with each refresh: the recorder's turns are read again then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [recorder, showsHistory, version],
  );
  return { snapshot: state.snapshot, history };
}

/** The names of the data parts the chat keeps (its CUSTOM events of these names become parts): declared ones, and tool progress. */
function dataPartNames(client: ChatClient): readonly string[] {
  return [...new Set([...Object.keys(client.options.dataParts ?? {}), TOOL_PROGRESS_EVENT])];
}

interface CatalogState {
  readonly catalog: PartialToolCatalogEntry[] | undefined;
  /** The tool sources (MCP servers) the catalog reports, when the app serves them. */
  readonly servers: readonly ToolServerStatus[] | undefined;
  /** How the server's discovery search is set up, when the catalog says (`createToolsHandler(tools, { discovery })`). */
  readonly search: ToolCatalogSearch | undefined;
  readonly error: string | undefined;
  readonly loadedAt: number | undefined;
}

/** How often the catalog is read again while the MCP or Timeline view shows servers. */
const SERVERS_REFRESH_MS = 5_000;

/**
 * Loads the tool catalog (the panel keeps working without one), and again whenever `version`
 * changes (a turn ended, the user asked): MCP servers reconnect and change their tools meanwhile.
 */
function useCatalog(url: string | undefined, version: string): CatalogState {
  const [state, setState] = useState<CatalogState>({
    catalog: undefined,
    servers: undefined,
    search: undefined,
    error: undefined,
    loadedAt: undefined,
  });
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    fetchToolCatalog(url, { signal: abort.signal })
      .then(({ tools, servers, search }) => {
        setState({ catalog: [...tools], servers, search, error: undefined, loadedAt: Date.now() });
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted)
          setState((before) => ({ ...before, catalog: undefined, error: error instanceof Error ? error.message : String(error) }));
      });
    return () => abort.abort();
  }, [url, version]);
  return state;
}

/**
 * The devtools panel: a header with the turn selector and the savings, four tabs (with MCP when the
 * catalog reports servers, and the views the app contributed when each says it applies), and the selected view.
 */
export function Panel(props: PanelProps) {
  const [tab, setTab] = useState<TabId>('tools');
  const live = useChatState(props.client, props.history, HISTORY_TABS.has(tab));
  // An opened record is shown the same way as the live chat, in its place, until "Back to live chat".
  const [opened, setOpened] = useState<OpenedRecord>();
  const recordView = useMemo(() => (opened ? viewOfRecord(opened.record) : undefined), [opened]);
  const snapshot = recordView ? recordView.snapshot : live.snapshot;
  const history = recordView ? recordView.history : live.history;
  const turnCount = snapshot?.turns.length ?? 0;
  const [refreshed, setRefreshed] = useState(0);
  const settled = snapshot?.status === 'ready' || snapshot?.status === 'error';
  // The catalog is read again when a turn settles (not while it streams), and on Refresh.
  const [settledTurns, setSettledTurns] = useState(turnCount);
  useEffect(() => {
    if (settled) setSettledTurns(turnCount);
  }, [settled, turnCount]);
  const liveCatalog = useCatalog(props.catalogUrl, `${settledTurns}:${refreshed}`);
  const { servers, error: catalogError, loadedAt } = liveCatalog;
  const catalog = recordView?.catalog ?? liveCatalog.catalog;
  const { client, history: recorder } = props;
  const save = useMemo(
    () => (client ? () => downloadChatRecord(chatRecordOf(client, recorder, liveCatalog.catalog)) : undefined),
    [client, recorder, liveCatalog.catalog],
  );
  const refresh = useCallback(() => setRefreshed((count) => count + 1), []);
  const watchingServers = servers !== undefined && (tab === 'mcp' || tab === 'timeline');
  useEffect(() => {
    if (!watchingServers) return;
    const timer = setInterval(refresh, SERVERS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [watchingServers, refresh]);
  const [pickedTurn, setPickedTurn] = useState<number | undefined>(undefined);
  const openRecord = useCallback((next: OpenedRecord | undefined) => {
    setOpened(next);
    setPickedTurn(undefined);
  }, []);
  const turn = pickedTurn !== undefined && pickedTurn <= turnCount ? pickedTurn : turnCount;
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const tokens = useMemo(
    () => buildTokensView(snapshot?.turns ?? [], snapshot?.conversationUsage),
    [snapshot?.turns, snapshot?.conversationUsage],
  );
  // The MCP tab appears when the catalog reports servers; a contributed view's tab when the view says it applies.
  const hasServers = servers !== undefined;
  const extensions = useExtensionViews(props.views);
  const messages = snapshot?.messages;
  const turns = snapshot?.turns;
  const tabs = useMemo(() => {
    const chat = { messages: messages ?? [], turns: turns ?? [] };
    const contributed = extensions
      .filter((loaded) => isViewAvailable(loaded, chat))
      .map((loaded) => ({ id: `view:${loaded.view.id}` as const, label: loaded.view.label, loaded }));
    return [...TABS.filter((item) => item.id !== 'mcp' || hasServers).map((item) => ({ ...item, loaded: undefined })), ...contributed];
  }, [messages, turns, hasServers, extensions]);
  // Each contributed view's picks (its choice blocks), kept while the panel is open.
  const [choices, setChoices] = useState<Readonly<Record<string, Readonly<Record<string, string>>>>>({});
  const contributed = tabs.find((item) => item.id === tab)?.loaded;

  // Escape closes the panel when the key is pressed inside it; the page keeps its own Escape (for
  // example, stopping a response) everywhere else.
  const onPanelKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !props.onClose) return;
    event.stopPropagation();
    props.onClose();
  };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = (index + delta + tabs.length) % tabs.length;
    setTab(tabs[next]!.id);
    tabRefs.current[next]?.focus();
  };

  if (!snapshot) {
    return (
      <div className="cw-empty">
        No chat to inspect: pass a ChatClient or the id of a chat, or open a saved record.
        <RecordControls opened={undefined} onSave={undefined} onOpen={openRecord} />
      </div>
    );
  }

  const { layout, onLayout } = props;
  return (
    <section
      aria-label="Chatwire devtools"
      data-testid="chatwire-devtools"
      data-dock={layout?.dock ?? 'embedded'}
      className="cw-frame"
      onKeyDown={onPanelKey}
    >
      {layout ? <ResizeHandle layout={layout} onLayout={onLayout} /> : null}
      <header className="cw-header">
        {layout?.dock === 'floating' ? <MoveHandle layout={layout} onLayout={onLayout} /> : null}
        <h2>Chatwire devtools</h2>
        <label>
          <span className="cw-muted">Turn </span>
          <select aria-label="Turn" value={turn} onChange={(event) => setPickedTurn(Number(event.target.value))} disabled={turnCount === 0}>
            {turnCount === 0 ? <option value={0}>none yet</option> : null}
            {Array.from({ length: turnCount }, (_, index) => (
              <option key={index} value={index + 1}>
                {`${index + 1}${index + 1 === turnCount ? ' (latest)' : ''}`}
              </option>
            ))}
          </select>
        </label>
        <span className="cw-chip" data-testid="devtools-status">
          {chatStatusWords(snapshot)}
        </span>
        {layout ? <DockControls dock={layout.dock} docks={props.docks} minAppWidth={props.minAppWidth} onLayout={onLayout} /> : null}
        {props.onClose ? (
          <button type="button" className="cw-button" onClick={props.onClose} aria-label="Close devtools">
            Close
          </button>
        ) : null}
        <RecordControls opened={opened} onSave={save} onOpen={openRecord} />
        <SavingsSummary savings={savingsAtAGlance(tokens, turn)} />
      </header>
      <div className="cw-tabs" role="tablist" aria-label="Devtools views">
        {tabs.map((item, index) => (
          <button
            key={item.id}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`cw-tab-${item.id}`}
            aria-selected={tab === item.id}
            aria-controls={`cw-panel-${item.id}`}
            tabIndex={tab === item.id ? 0 : -1}
            className="cw-tab"
            onClick={() => setTab(item.id)}
            onKeyDown={(event) => onTabKey(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div className="cw-body" role="tabpanel" id={`cw-panel-${tab}`} aria-labelledby={`cw-tab-${tab}`}>
        {tab === 'tools' ? (
          <ToolsView
            catalog={catalog}
            catalogError={catalogError}
            messages={snapshot.messages}
            turns={snapshot.turns}
            turn={turn}
            servers={servers}
          />
        ) : null}
        {tab === 'tokens' ? (
          <>
            <TokensView view={tokens} selectedTurn={turn} />
            <DiscoverySearchesView turns={snapshot.turns} turn={turn} />
          </>
        ) : null}
        {tab === 'requests' ? <RequestsView history={history} turns={snapshot.turns} turn={turn} /> : null}
        {tab === 'timeline' ? (
          <TimelineView
            messages={snapshot.messages}
            servers={servers}
            appMessages={history.flatMap((recorded) => recorded.appMessages ?? [])}
            grants={
              props.grantsUrl && props.client && !opened
                ? { url: props.grantsUrl, threadId: props.client.id, version: `${settledTurns}:${refreshed}` }
                : undefined
            }
          />
        ) : null}
        {tab === 'events' ? (
          <EventsView
            history={history}
            turnId={snapshot.turns[turn - 1]?.id}
            dataParts={recordView?.dataParts ?? (props.client ? dataPartNames(props.client) : [])}
          />
        ) : null}
        {contributed ? (
          <ExtensionView
            blocks={viewBlocks(contributed, {
              messages: snapshot.messages,
              turns: snapshot.turns,
              turn,
              choices: choices[contributed.view.id] ?? {},
            })}
            onChoice={(key, value) =>
              setChoices((before) => ({ ...before, [contributed.view.id]: { ...before[contributed.view.id], [key]: value } }))
            }
          />
        ) : null}
        {tab === 'search' ? (
          <PlaygroundView catalog={catalog} search={recordView ? undefined : liveCatalog.search} catalogError={catalogError} />
        ) : null}
        {tab === 'health' ? <HealthView catalog={catalog} search={recordView ? undefined : liveCatalog.search} /> : null}
        {tab === 'unused' ? <UnusedToolsView messages={snapshot.messages} turns={snapshot.turns} catalog={catalog} /> : null}
        {tab === 'travel' ? (
          <TimeTravelView recorded={recordView ? recordView.actions : props.history?.actions()} now={snapshot} live={!recordView} />
        ) : null}
        {tab === 'mcp' && servers ? (
          <McpView servers={servers} messages={snapshot.messages} onRefresh={refresh} loadedAt={loadedAt} />
        ) : null}
      </div>
    </section>
  );
}
