import type { ReactNode } from 'react';
import { fieldLabel } from '../vocabulary.js';

type Json = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const scalar = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/**
 * One value in a few words, as text: scalars as they are, lists by their first items and count,
 * objects as "Key: value" pairs. Never JSON, never HTML.
 */
export function summarizeValue(value: unknown): string {
  if (Array.isArray(value)) {
    const names = value
      .map((item) => (isRecord(item) ? scalar(item['name'] ?? item['title'] ?? item['id'] ?? item['date']) : scalar(item)))
      .filter(Boolean);
    return names.length > 0
      ? names.slice(0, 4).join(', ') + (value.length > 4 ? `, and ${value.length - 4} more` : '')
      : `${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, field]) => `${fieldLabel(key)}: ${typeof field === 'object' && field !== null ? '…' : scalar(field)}`)
      .join(' · ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return scalar(value);
}

/** A tool's arguments as one short line of fields ("City: Paris · Days: 3"); nothing for an empty input. */
export function ToolInputFields(props: { input: unknown }) {
  const { input } = props;
  if (!isRecord(input)) return null;
  const entries = Object.entries(input);
  if (entries.length === 0) return null;
  return (
    <p className="cw-tool-input">
      {entries.map(([key, value], index) => (
        <span key={key}>
          {index > 0 ? ' · ' : ''}
          <span className="cw-muted">{`${fieldLabel(key)}: `}</span>
          {summarizeValue(value)}
        </span>
      ))}
    </p>
  );
}

/** A tool's output as a list of labelled fields (the generic card's result); a sentence for a scalar. */
export function ToolOutputFields(props: { output: unknown }): ReactNode {
  const { output } = props;
  if (!isRecord(output)) return <p className="cw-result-line">{summarizeValue(output) || 'Done.'}</p>;
  const entries = Object.entries(output).filter(([, field]) => field !== null && field !== undefined);
  if (entries.length === 0) return <p className="cw-result-line">Done.</p>;
  return (
    <dl className="cw-fields">
      {entries.map(([key, field]) => (
        <div key={key} className="cw-field">
          <dt>{fieldLabel(key)}</dt>
          <dd>{summarizeValue(field)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The raw JSON, folded away until the reader opens it (rendered as text). */
export function RawJson(props: { value: unknown; label?: string }) {
  return (
    <details className="cw-raw-json">
      <summary>{props.label ?? 'JSON'}</summary>
      <pre className="cw-json">{JSON.stringify(props.value, null, 2) ?? String(props.value)}</pre>
    </details>
  );
}
