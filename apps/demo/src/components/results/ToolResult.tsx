import type { ReactNode } from 'react';

/**
 * Tool results as a person reads them: a card per kind of result (weather, forecast, products,
 * orders, refunds, to-dos and the page's own tools), and a plain list of fields for the rest. Every
 * value is rendered by React as text, never as HTML. The raw JSON stays one click away on the card.
 */

type Json = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const money = (amount: unknown, currency: unknown): string =>
  typeof amount === 'number'
    ? new Intl.NumberFormat('en-US', { style: 'currency', currency: typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD' }).format(amount)
    : '';

/** `rainChance` -> `Rain chance`. */
const label = (key: string): string => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function Fields({ value }: { value: Json }) {
  const entries = Object.entries(value).filter(([, field]) => field !== null && field !== undefined);
  return (
    <dl className="fields">
      {entries.map(([key, field]) => (
        <div key={key} className="field">
          <dt>{label(key)}</dt>
          <dd>{summary(field)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One value in a few words: scalars as they are, lists by their count and first items. */
function summary(value: unknown): ReactNode {
  if (Array.isArray(value)) {
    const names = value.map((item) => (isRecord(item) ? text(item['name'] ?? item['title'] ?? item['id'] ?? item['date']) : text(item))).filter(Boolean);
    return names.length > 0 ? names.slice(0, 4).join(', ') + (value.length > 4 ? `, and ${value.length - 4} more` : '') : `${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  if (isRecord(value)) return Object.entries(value).map(([key, field]) => `${label(key)}: ${typeof field === 'object' ? '…' : text(field)}`).join(' · ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return text(value);
}

function Weather({ value }: { value: Json }) {
  return (
    <div className="result-weather">
      <span className="result-big">{`${text(value['celsius'])} °C`}</span>
      <span>
        <strong>{text(value['city'])}</strong>
        <br />
        {text(value['conditions'])}
      </span>
    </div>
  );
}

function Forecast({ value }: { value: Json }) {
  const days = Array.isArray(value['days']) ? value['days'].filter(isRecord) : [];
  const unit = value['units'] === 'imperial' ? '°F' : '°C';
  return (
    <div>
      <p className="result-title">{`Forecast for ${text(value['city'])}`}</p>
      <ul className="result-days">
        {days.map((day, index) => (
          <li key={index}>
            <span className="muted">{text(day['date'])}</span>
            <strong>{`${text(day['high'])}${unit} / ${text(day['low'])}${unit}`}</strong>
            <span>{`${text(day['rainChance'])}% rain`}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Products({ value }: { value: Json }) {
  const results = Array.isArray(value['results']) ? value['results'].filter(isRecord) : [];
  return (
    <div>
      <p className="result-title">{`${results.length} result${results.length === 1 ? '' : 's'} for “${text(value['query'])}”`}</p>
      <ul className="result-list">
        {results.map((product) => (
          <li key={text(product['id'])}>
            <span>
              <strong>{text(product['name'])}</strong> <span className="muted">{text(product['id'])}</span>
            </span>
            <span>
              {money(product['price'], product['currency'])}
              {product['inStock'] === false ? <span className="pill pill-warn">out of stock</span> : <span className="pill pill-ok">in stock</span>}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Order({ value }: { value: Json }) {
  const items = Array.isArray(value['items']) ? value['items'].filter(isRecord) : [];
  return (
    <div>
      <p className="result-title">
        {`Order ${text(value['orderId'])}`} <span className="pill">{text(value['status'])}</span>
      </p>
      <ul className="result-list">
        {items.map((item, index) => (
          <li key={index}>
            <span>{`${text(item['quantity'])} × ${text(item['name'])}`}</span>
            <span>{money(item['price'], value['currency'])}</span>
          </li>
        ))}
      </ul>
      <p className="result-total">
        <span className="muted">{`Placed ${text(value['placedOn'])}`}</span>
        <strong>{money(value['total'], value['currency'])}</strong>
      </p>
    </div>
  );
}

function Orders({ value }: { value: Json }) {
  const orders = Array.isArray(value['orders']) ? value['orders'].filter(isRecord) : [];
  return (
    <ul className="result-list">
      {orders.map((order) => (
        <li key={text(order['orderId'])}>
          <span>
            <strong>{text(order['orderId'])}</strong> <span className="pill">{text(order['status'])}</span>
          </span>
          <span>{money(order['total'], order['currency'] ?? value['currency'])}</span>
        </li>
      ))}
    </ul>
  );
}

function Refund({ value }: { value: Json }) {
  return (
    <p className="result-title">
      {`Refund of ${money(value['amount'], value['currency'])} for ${text(value['orderId'])}`} <span className="pill pill-ok">{text(value['status'])}</span>
      <br />
      <span className="muted">{`Expected in ${text(value['expectedInDays'])} · ${text(value['refundId'])}`}</span>
    </p>
  );
}

/** What a page tool did, in a sentence (the page itself shows the change). */
function PageChange({ toolName, value, onShowPanel }: { toolName: string; value: Json; onShowPanel: (() => void) | undefined }) {
  const sentence: Record<string, string> = {
    addTodo: `Added to your to-do list: “${text(value['title'])}”`,
    highlightMessage: `Pinned a note: “${text(value['text'])}”`,
    setTheme: `Switched to the ${text(value['theme'])} theme`,
    setAccentColor: `Accent colour is now ${text(value['color'])}`,
    showBanner: `Showing the banner “${text(value['text'])}”`,
    applyPreferences: `Applied your saved preferences (${text(value['theme'])} theme)`,
    scrollToTop: 'Scrolled to the top of the conversation',
  };
  const panelTool = toolName === 'addTodo' || toolName === 'highlightMessage';
  return (
    <p className="result-title">
      {sentence[toolName] ?? label(toolName)}
      {panelTool && onShowPanel ? (
        <>
          {' '}
          <button type="button" className="link-button show-panel" onClick={onShowPanel}>
            {toolName === 'addTodo' ? 'Show the list' : 'Show notes'}
          </button>
        </>
      ) : null}
    </p>
  );
}

const PAGE_TOOLS = new Set(['addTodo', 'highlightMessage', 'setTheme', 'setAccentColor', 'showBanner', 'applyPreferences', 'scrollToTop']);

/** A tool's output as a readable card; the generic field list for tools without a card of their own. */
export function ToolResult(props: { toolName: string; output: unknown; onShowPanel?: () => void }) {
  const { toolName, output } = props;
  if (!isRecord(output)) return <p className="result-title">{summary(output) || 'Done.'}</p>;
  if (toolName === 'getWeather') return <Weather value={output} />;
  if (toolName === 'getForecast') return <Forecast value={output} />;
  if (toolName === 'searchProducts') return <Products value={output} />;
  if (toolName === 'getOrder') return <Order value={output} />;
  if (toolName === 'listOrders' && Array.isArray(output['orders'])) return <Orders value={output} />;
  if (toolName === 'refundOrder') return <Refund value={output} />;
  if (PAGE_TOOLS.has(toolName)) return <PageChange toolName={toolName} value={output} onShowPanel={props.onShowPanel} />;
  return <Fields value={output} />;
}

/** A tool's arguments as a short line of fields ("City: Paris · Days: 3"). */
export function ToolInput({ input }: { input: unknown }) {
  if (!isRecord(input)) return null;
  const entries = Object.entries(input);
  if (entries.length === 0) return null;
  return (
    <p className="tool-input">
      {entries.map(([key, value], index) => (
        <span key={key}>
          {index > 0 ? ' · ' : ''}
          <span className="muted">{`${label(key)}: `}</span>
          {summary(value)}
        </span>
      ))}
    </p>
  );
}
