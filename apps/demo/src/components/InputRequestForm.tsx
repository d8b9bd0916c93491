import { memo, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { InputAnswerInput, InputRequestView } from '@chatwire/core';

/**
 * One field of a requested form, read from its JSON Schema property: what to render, and how to
 * turn what was typed into the value the schema expects. Everything shown comes from the schema
 * as text (labels, descriptions, option titles): nothing is rendered as HTML, and no pattern from
 * it is compiled (the server refuses schemas with `pattern`).
 */
interface Field {
  readonly key: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  readonly kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'unsupported';
  /** For `choice`: the values and their labels. */
  readonly options?: readonly { readonly value: string | number; readonly label: string }[];
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** For `text`: the input type its `format` asks for. */
  readonly inputType?: 'text' | 'email' | 'url' | 'date';
  readonly defaultValue?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOr = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const FORMATS: Record<string, Field['inputType']> = { email: 'email', uri: 'url', date: 'date' };

/** The fields of an object schema, in the order its `properties` list them. */
export function fieldsOf(schema: Readonly<Record<string, unknown>>): Field[] {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((key): key is string => typeof key === 'string') : [];
  return Object.entries(properties).map(([key, raw]) => {
    const property = isRecord(raw) ? raw : {};
    const base = {
      key,
      label: typeof property['title'] === 'string' && property['title'].trim() ? property['title'] : key,
      ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
      required: required.includes(key),
      ...(property['default'] === undefined ? {} : { defaultValue: property['default'] }),
    };
    const names = Array.isArray(property['enumNames']) ? property['enumNames'] : [];
    if (Array.isArray(property['enum'])) {
      const values = property['enum'].filter((value): value is string | number => typeof value === 'string' || typeof value === 'number');
      return {
        ...base,
        kind: 'choice',
        options: values.map((value, index) => ({ value, label: typeof names[index] === 'string' ? names[index] : String(value) })),
      };
    }
    const oneOf = Array.isArray(property['oneOf']) ? property['oneOf'] : Array.isArray(property['anyOf']) ? property['anyOf'] : undefined;
    if (
      oneOf &&
      oneOf.every((option) => isRecord(option) && (typeof option['const'] === 'string' || typeof option['const'] === 'number'))
    ) {
      return {
        ...base,
        kind: 'choice',
        options: (oneOf as Record<string, unknown>[]).map((option) => ({
          value: option['const'] as string | number,
          label: typeof option['title'] === 'string' ? option['title'] : String(option['const']),
        })),
      };
    }
    const bounds = {
      ...(numberOr(property['minimum']) === undefined ? {} : { min: numberOr(property['minimum']) }),
      ...(numberOr(property['maximum']) === undefined ? {} : { max: numberOr(property['maximum']) }),
    };
    switch (property['type']) {
      case 'boolean':
        return { ...base, kind: 'boolean' };
      case 'integer':
        return { ...base, kind: 'integer', ...bounds };
      case 'number':
        return { ...base, kind: 'number', ...bounds };
      case 'string':
        return {
          ...base,
          kind: 'text',
          inputType: (typeof property['format'] === 'string' ? FORMATS[property['format']] : undefined) ?? 'text',
          ...(numberOr(property['minLength']) === undefined ? {} : { minLength: numberOr(property['minLength']) }),
          ...(numberOr(property['maxLength']) === undefined ? {} : { maxLength: numberOr(property['maxLength']) }),
        };
      default:
        return { ...base, kind: 'unsupported' };
    }
  }) as Field[];
}

/** What the form's inputs hold: the values the schema asks for, read from the inputs. */
function contentOf(fields: readonly Field[], form: HTMLFormElement): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const element = form.elements.namedItem(field.key);
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) continue;
    if (field.kind === 'boolean') {
      content[field.key] = (element as HTMLInputElement).checked;
      continue;
    }
    const raw = element.value;
    if (raw === '') continue; // an optional field left empty is left out
    if (field.kind === 'number' || field.kind === 'integer') content[field.key] = Number(raw);
    else if (field.kind === 'choice') {
      const option = field.options?.find((candidate) => String(candidate.value) === raw);
      content[field.key] = option ? option.value : raw;
    } else content[field.key] = raw;
  }
  return content;
}

/** What the user answered, in words. */
const ANSWERED: Record<Exclude<InputRequestView['status'], 'pending'>, string> = {
  accepted: 'Sent',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/**
 * A server tool's request for input (an MCP server's elicitation, or the demo's `bookTable`), as a
 * form built from the requested JSON Schema: labelled fields (strings, numbers, integers, booleans,
 * enums; required ones marked), Submit / Decline / Cancel. Focus moves to its first field when it
 * appears; a refused answer is announced and leaves the form as it was. Once answered, it says what
 * was sent.
 */
export const InputRequestForm = memo(function InputRequestForm(props: {
  request: InputRequestView;
  onAnswer: (answer: InputAnswerInput) => Promise<void>;
}) {
  const { request } = props;
  const id = useId();
  const fields = fieldsOf(request.schema);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const first = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const pending = request.status === 'pending';
  useEffect(() => {
    if (pending) first.current?.focus();
  }, [pending]);

  const answer = (input: InputAnswerInput) => {
    setSending(true);
    setError(undefined);
    props.onAnswer(input).then(
      () => setSending(false),
      (reason: unknown) => {
        setSending(false);
        setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    answer({ id: request.id, action: 'accept', content: contentOf(fields, event.currentTarget) });
  };

  if (!pending) {
    return (
      <section
        className="input-request input-request-answered"
        data-testid="input-request"
        data-status={request.status}
        aria-label={`Input for ${request.toolName}`}
      >
        <p className="input-request-message">{request.message}</p>
        <p className="input-request-outcome" data-testid="input-request-outcome">
          {ANSWERED[request.status]}
          {request.content
            ? `: ${Object.entries(request.content)
                .map(([key, value]) => `${fields.find((field) => field.key === key)?.label ?? key} ${String(value)}`)
                .join(', ')}`
            : ''}
        </p>
      </section>
    );
  }
  return (
    <form
      className="input-request"
      data-testid="input-request"
      data-status="pending"
      aria-labelledby={`${id}-message`}
      onSubmit={submit}
      noValidate={false}
    >
      <p className="input-request-message" id={`${id}-message`}>
        {request.message}
      </p>
      <p className="input-request-asker">Asked by {request.toolName}</p>
      {fields.map((field, index) => {
        const inputId = `${id}-${index}`;
        const describedBy = field.description ? `${inputId}-description` : undefined;
        const ref = index === 0 ? first : undefined;
        const common = { id: inputId, name: field.key, required: field.required, disabled: sending, 'aria-describedby': describedBy, ref };
        let control;
        switch (field.kind) {
          case 'boolean':
            control = <input {...common} type="checkbox" required={false} defaultChecked={field.defaultValue === true} />;
            break;
          case 'choice':
            control = (
              <select
                {...common}
                defaultValue={
                  typeof field.defaultValue === 'string' || typeof field.defaultValue === 'number' ? String(field.defaultValue) : ''
                }
              >
                <option value="" disabled={field.required}>
                  {field.required ? 'Choose…' : 'None'}
                </option>
                {field.options?.map((option) => (
                  <option key={String(option.value)} value={String(option.value)}>
                    {option.label}
                  </option>
                ))}
              </select>
            );
            break;
          case 'number':
          case 'integer':
            control = (
              <input
                {...common}
                type="number"
                inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
                step={field.kind === 'integer' ? 1 : 'any'}
                min={field.min}
                max={field.max}
                defaultValue={typeof field.defaultValue === 'number' ? field.defaultValue : undefined}
              />
            );
            break;
          case 'text':
            control = (
              <input
                {...common}
                type={field.inputType}
                minLength={field.minLength}
                maxLength={field.maxLength}
                defaultValue={typeof field.defaultValue === 'string' ? field.defaultValue : undefined}
              />
            );
            break;
          default:
            control = (
              <span className="input-request-unsupported" id={inputId}>
                This field cannot be filled in here.
              </span>
            );
        }
        return (
          <div className={`input-request-field input-request-field-${field.kind}`} key={field.key}>
            <label htmlFor={inputId}>
              {field.label}
              {field.required ? <span aria-hidden="true"> *</span> : null}
              {field.required ? <span className="sr-only"> (required)</span> : null}
            </label>
            {control}
            {field.description ? (
              <small className="input-request-description" id={describedBy}>
                {field.description}
              </small>
            ) : null}
          </div>
        );
      })}
      {error ? (
        <p className="input-request-error" role="alert" data-testid="input-request-error">
          {error}
        </p>
      ) : null}
      <div className="input-request-actions">
        <button type="submit" className="action action-primary" disabled={sending}>
          Submit
        </button>
        <button type="button" className="action" disabled={sending} onClick={() => answer({ id: request.id, action: 'decline' })}>
          Decline
        </button>
        <button type="button" className="action" disabled={sending} onClick={() => answer({ id: request.id, action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </form>
  );
});
