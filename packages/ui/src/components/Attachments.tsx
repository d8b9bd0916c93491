import type { FilePart } from '@chatwire/core';
import { formatSize } from '../vocabulary.js';

/**
 * The files of a message: images as thumbnails (with their file name as the alternative text),
 * other files by name and size. A file's URL is only ever an image source, never markup.
 */
export function Attachments(props: { files: readonly FilePart[] }) {
  return (
    <ul className="cw-files" aria-label="Attachments" data-testid="message-files">
      {props.files.map((file, index) => (
        <li key={index} className="cw-file" data-mime={file.mimeType}>
          {file.mimeType.startsWith('image/') ? (
            <img src={file.url} alt={file.filename ?? 'attached image'} className="cw-file-image" />
          ) : (
            <span className="cw-chip">
              <span className="cw-chip-name">{file.filename ?? file.mimeType}</span>
              {file.size === undefined ? null : <span className="cw-chip-size">{formatSize(file.size)}</span>}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
