import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { fetchCompletions, fetchPromptText, fetchPrompts, type ListedPrompt, type ServerOffer } from './mcpComposerApi.js';

/** Props of {@link PromptCommands}. */
export interface PromptCommandsProps {
  /** The draft: commands show while it starts with `/`. */
  readonly text: string;
  /** Replaces the draft with the chosen prompt's text. */
  readonly onFill: (text: string) => void;
  /** Where the MCP handler is mounted. Defaults to `/api/mcp`. */
  readonly endpoint?: string;
}

interface Chosen {
  readonly server: string;
  readonly prompt: ListedPrompt;
}

const message = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

/**
 * MCP prompts as slash commands: while the draft starts with `/`, the user's servers' prompts whose
 * name matches what follows are listed (read once from the MCP handler); choosing one with
 * arguments opens a small form (each argument a field, required ones marked, completion values
 * offered where the server completes them), and its text replaces the draft, to edit and send.
 * A server's refusal (a missing argument...) is shown as it words it; a listing that fails offers
 * no commands (typing `/` stays plain text).
 */
export function PromptCommands(props: PromptCommandsProps) {
  const endpoint = props.endpoint ?? '/api/mcp';
  const typing = props.text.startsWith('/');
  const [offers, setOffers] = useState<ServerOffer<ListedPrompt>[] | undefined>(undefined);
  const [chosen, setChosen] = useState<Chosen | undefined>(undefined);
  const [values, setValues] = useState<Record<string, string>>({});
  const [completions, setCompletions] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const formId = useId();

  useEffect(() => {
    if (!typing || offers !== undefined) return;
    let live = true;
    fetchPrompts(endpoint).then(
      (listed) => live && setOffers(listed),
      // Typing `/` is not asking for prompts: a listing that fails (no MCP handler here) offers none, silently.
      () => live && setOffers([]),
    );
    return () => {
      live = false;
    };
  }, [typing, offers, endpoint]);

  const fill = (server: string, prompt: ListedPrompt, args: Record<string, string>) => {
    setError(undefined);
    fetchPromptText(endpoint, server, prompt.name, args).then(
      (text) => {
        setChosen(undefined);
        setValues({});
        props.onFill(text);
      },
      (failure: unknown) => setError(message(failure)),
    );
  };
  const choose = (server: string, prompt: ListedPrompt) => {
    setError(undefined);
    if (prompt.arguments.length === 0) return fill(server, prompt, {});
    setChosen({ server, prompt });
    setValues({});
    setCompletions({});
  };
  const change = (name: string, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (!chosen) return;
    const context = Object.fromEntries(Object.entries(next).filter(([key, item]) => key !== name && item !== ''));
    fetchCompletions(endpoint, chosen.server, chosen.prompt.name, { name, value }, context).then(
      (found) => setCompletions((current) => ({ ...current, [name]: found })),
      () => setCompletions((current) => ({ ...current, [name]: [] })),
    );
  };
  const submit = () => {
    if (chosen) fill(chosen.server, chosen.prompt, Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  if (chosen) {
    return (
      // A group, not a form: it sits inside the composer's form (Enter in a field uses the prompt).
      <fieldset className="cw-prompt-form" aria-label={`Arguments of /${chosen.prompt.name}`} data-testid="prompt-form">
        <p className="cw-prompt-title">{`/${chosen.prompt.name}`}</p>
        {chosen.prompt.description ? <p className="cw-composer-note">{chosen.prompt.description}</p> : null}
        {chosen.prompt.arguments.map((argument) => (
          <label key={argument.name} className="cw-prompt-field">
            <span>{`${argument.name}${argument.required ? ' (required)' : ''}`}</span>
            <input
              value={values[argument.name] ?? ''}
              aria-required={argument.required}
              onKeyDown={onKeyDown}
              list={`${formId}-${argument.name}`}
              title={argument.description}
              onChange={(event) => change(argument.name, event.target.value)}
            />
            <datalist id={`${formId}-${argument.name}`}>
              {(completions[argument.name] ?? []).map((value) => (
                <option key={value} value={value} />
              ))}
            </datalist>
          </label>
        ))}
        {error ? (
          <p className="cw-composer-note cw-composer-refusal" role="alert">
            {error}
          </p>
        ) : null}
        <div className="cw-prompt-actions">
          <button type="button" onClick={submit}>
            Use prompt
          </button>
          <button type="button" onClick={() => setChosen(undefined)}>
            Cancel
          </button>
        </div>
      </fieldset>
    );
  }
  if (!typing) return null;
  const query = props.text.slice(1).split(/\s/, 1)[0]?.toLowerCase() ?? '';
  const matches = (offers ?? []).flatMap((offer) =>
    offer.items.filter((prompt) => prompt.name.toLowerCase().startsWith(query)).map((prompt) => ({ server: offer.server, prompt })),
  );
  if (!error && matches.length === 0) return null;
  return (
    <div className="cw-prompt-commands" data-testid="prompt-commands">
      {error ? (
        <p className="cw-composer-note cw-composer-refusal" role="alert">
          {error}
        </p>
      ) : null}
      <ul aria-label="Prompts">
        {matches.map(({ server, prompt }) => (
          <li key={`${server}/${prompt.name}`}>
            <button type="button" onClick={() => choose(server, prompt)}>
              <span className="cw-prompt-name">{`/${prompt.name}`}</span>
              <span className="cw-prompt-server">{server}</span>
              {prompt.description ? <span className="cw-prompt-description">{prompt.description}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
