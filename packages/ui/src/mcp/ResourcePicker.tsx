import { useId, useState } from 'react';
import { fetchResourceFile, fetchResources, type ListedResource, type ServerOffer } from './mcpComposerApi.js';

/** Props of {@link ResourcePicker}. */
export interface ResourcePickerProps {
  /** Where the MCP handler is mounted. Defaults to `/api/mcp`. */
  readonly endpoint?: string;
  /** Called with the resource read as a file (text as `text/plain`), to attach to the draft. */
  readonly onAttach: (files: readonly File[]) => void;
  /** Words for a size in bytes (the composer passes its own, so this lazy chunk shares no module with the first load). */
  readonly formatSize: (bytes: number) => string;
}

/**
 * "Attach a resource": a button that lists the user's MCP servers' resources (read from the MCP
 * handler when opened); choosing one reads it on the server (refused past its size bound, with the
 * reason shown) and attaches it to the draft as a file. Names and titles are shown as text.
 */
export function ResourcePicker(props: ResourcePickerProps) {
  const endpoint = props.endpoint ?? '/api/mcp';
  const [offers, setOffers] = useState<ServerOffer<ListedResource>[] | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [reading, setReading] = useState<string | undefined>(undefined);
  const listId = useId();
  const toggle = () => {
    setError(undefined);
    if (open) return setOpen(false);
    setOpen(true);
    fetchResources(endpoint).then(setOffers, (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  };
  const choose = (server: string, resource: ListedResource) => {
    setReading(resource.uri);
    setError(undefined);
    fetchResourceFile(endpoint, server, resource.uri).then(
      (file) => {
        setReading(undefined);
        setOpen(false);
        props.onAttach([file]);
      },
      (failure: unknown) => {
        setReading(undefined);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  return (
    <div className="cw-resource-picker">
      <button
        type="button"
        className="cw-attach cw-attach-resource"
        aria-label="Attach a resource"
        title="Attach a resource from an MCP server"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={toggle}
      >
        @
      </button>
      {open ? (
        <div className="cw-resource-menu" id={listId} data-testid="resource-menu">
          {error ? (
            <p className="cw-composer-note cw-composer-refusal" role="alert">
              {error}
            </p>
          ) : null}
          {offers === undefined && !error ? <p className="cw-composer-note">Loading resources…</p> : null}
          {offers?.map((offer) => (
            <section key={offer.server} aria-label={`Resources of ${offer.server}`}>
              <h3 className="cw-resource-server">{offer.server}</h3>
              {offer.error ? <p className="cw-composer-note">{`Nothing to attach: ${offer.error}.`}</p> : null}
              {!offer.error && offer.items.length === 0 ? <p className="cw-composer-note">No resources.</p> : null}
              <ul>
                {offer.items.map((resource) => (
                  <li key={resource.uri}>
                    <button type="button" disabled={reading !== undefined} onClick={() => choose(offer.server, resource)}>
                      {resource.title ?? resource.name}
                      {resource.size !== undefined ? <span className="cw-chip-size">{props.formatSize(resource.size)}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : null}
    </div>
  );
}
