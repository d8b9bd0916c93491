import type { ReactNode } from 'react';
import { makeToolUI, ToolOutputFields, type ToolUI } from '@chatwire/ui';
import {
  addTodo,
  applyPreferences,
  getForecast,
  getOrder,
  getWeather,
  highlightMessage,
  listOrders,
  refundOrder,
  scrollToTop,
  searchProducts,
  setAccentColor,
  setTheme,
  showBanner,
} from '../shared/catalog.ts';

/**
 * The demo's tool renderers for @chatwire/ui's registry: a card per kind of result (weather,
 * forecast, products, orders, refunds, and the page's own tools); every other tool gets the
 * generic card. Every value is rendered by React as text, never as HTML; the card keeps the raw
 * JSON one click away.
 */

type Json = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
const money = (amount: unknown, currency: unknown): string =>
  typeof amount === 'number'
    ? new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD',
      }).format(amount)
    : '';

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
              {product['inStock'] === false ? (
                <span className="pill pill-warn">out of stock</span>
              ) : (
                <span className="pill pill-ok">in stock</span>
              )}
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
      {`Refund of ${money(value['amount'], value['currency'])} for ${text(value['orderId'])}`}{' '}
      <span className="pill pill-ok">{text(value['status'])}</span>
      <br />
      <span className="muted">{`Expected in ${text(value['expectedInDays'])} · ${text(value['refundId'])}`}</span>
    </p>
  );
}

/** What a page tool did, in a sentence (the page itself shows the change). */
function PageChange({ toolName, value, onShowPanel }: { toolName: string; value: Json; onShowPanel: () => void }) {
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
      {sentence[toolName] ?? 'Done.'}
      {panelTool ? (
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

/** A renderer that reads the output as a record (anything else shows as fields). */
function card(render: (value: Json) => ReactNode) {
  return ({ output }: { output: unknown }) => (isRecord(output) ? render(output) : <ToolOutputFields output={output} />);
}

/**
 * The demo's renderers, by tool. `onShowPanel` opens the notes and to-do panel (a drawer on phones)
 * from the cards of the tools that write to it. Create them once (they are memoised on identity).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each renderer keeps its own tool's types
export function createToolUIs(onShowPanel: () => void): readonly ToolUI<string, any, any>[] {
  const pageChange = (toolName: string) => card((value) => <PageChange toolName={toolName} value={value} onShowPanel={onShowPanel} />);
  return [
    makeToolUI(
      getWeather,
      card((value) => <Weather value={value} />),
    ),
    makeToolUI(
      getForecast,
      card((value) => <Forecast value={value} />),
    ),
    makeToolUI(
      searchProducts,
      card((value) => <Products value={value} />),
    ),
    makeToolUI(
      getOrder,
      card((value) => <Order value={value} />),
    ),
    makeToolUI(
      listOrders,
      card((value) => (Array.isArray(value['orders']) ? <Orders value={value} /> : <ToolOutputFields output={value} />)),
    ),
    makeToolUI(
      refundOrder,
      card((value) => <Refund value={value} />),
    ),
    makeToolUI(addTodo, pageChange('addTodo')),
    makeToolUI(highlightMessage, pageChange('highlightMessage')),
    makeToolUI(setTheme, pageChange('setTheme')),
    makeToolUI(setAccentColor, pageChange('setAccentColor')),
    makeToolUI(showBanner, pageChange('showBanner')),
    makeToolUI(applyPreferences, pageChange('applyPreferences')),
    makeToolUI(scrollToTop, pageChange('scrollToTop')),
  ];
}
