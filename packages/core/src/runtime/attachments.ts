import { ChatwireError, describeError } from '../base/errors.js';
import { checkFileUrl } from '../model/fileUrl.js';
import { neutralizeBidi } from '../base/bidiControls.js';
import type { FileInput, FilePart } from '../model/messages.js';
import type { Turn } from './turn.js';

/**
 * Reading, checking and uploading the files of `sendMessage({ files })`. `ChatClient` imports this
 * module the first time a message has files, so apps that never attach one do not load it.
 */

/** Options of attachments (`ChatClientOptions.attachments`). */
export interface AttachmentOptions {
  /**
   * Largest `File` / `Blob` accepted, in bytes (inline or uploaded). Defaults to 2 MiB
   * (2,097,152), which fits the server's default 4 MiB request body once base64 encoded.
   */
  readonly maxFileBytes?: number;
  /**
   * Most bytes the files of one message may add to the request: base64 of inline files (a third
   * larger than the file) plus the length of URLs. Defaults to 3 MiB (3,145,728), leaving 1 MiB of
   * the server's default 4 MiB body for the rest of the conversation.
   */
  readonly maxMessageBytes?: number;
  /**
   * Turns a file into a URL the agent can fetch (your storage), instead of sending its bytes inline.
   * Called for every `File` / `Blob`, concurrently; the `signal` aborts when the send is stopped.
   * A rejection refuses the send with `upload-failed`. Defaults to none (files go inline).
   */
  readonly uploadFile?: (file: Blob, options: { readonly signal: AbortSignal }) => Promise<{ readonly url: string }>;
}

/** Default of {@link AttachmentOptions.maxFileBytes}: 2 MiB. */
const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Default of {@link AttachmentOptions.maxMessageBytes}: 3 MiB. */
const DEFAULT_MAX_MESSAGE_BYTES = 3 * 1024 * 1024;

/** Common extensions, for a URL given without a MIME type (the agent picks the part type from it). */
const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
};

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;
const nameOf = (file: Blob, index: number) =>
  typeof (file as File).name === 'string' && (file as File).name ? `'${neutralizeBidi((file as File).name)}'` : `file ${index + 1}`;

/** Bytes in the unit a person reads: bytes, KiB or MiB. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Length of the base64 text of `bytes` bytes. */
const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

function mimeTypeOfUrl(url: string): string {
  if (url.startsWith('data:')) {
    const type = url.slice(5, url.search(/[;,]/));
    if (type) return type;
  }
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSION_TYPES[extension] ?? 'application/octet-stream';
}

/**
 * Checks every input against the limits, then reads (base64) or uploads the files concurrently.
 * Throws only `ChatwireError`s (`invalid-file`, `file-too-large`, `upload-failed`, and `cancelled`
 * once `signal` aborts), before anything is sent: nothing is changed then.
 */
async function readAttachments(
  inputs: ArrayLike<FileInput>,
  options: AttachmentOptions = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<FilePart[]> {
  const files: readonly unknown[] = Array.from(inputs);
  const maxFile = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxMessage = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const upload = options.uploadFile;
  let total = 0;
  files.forEach((file, index) => {
    if (isBlob(file)) {
      if (file.size > maxFile) {
        throw new ChatwireError(
          'file-too-large',
          `${nameOf(file, index)} is ${formatBytes(file.size)}: files may be at most ${formatBytes(maxFile)} (attachments.maxFileBytes).`,
        );
      }
      if (!upload) total += base64Length(file.size);
      return;
    }
    const url = (file as { url?: unknown } | null)?.url;
    if (typeof url !== 'string' || url === '') {
      throw new ChatwireError('invalid-file', `Attachment ${index + 1} is neither a File or Blob nor { url }: nothing was sent.`);
    }
    const verdict = checkFileUrl(url, { blob: true, relative: true });
    if (!verdict.ok) {
      throw new ChatwireError(
        'invalid-file',
        `Attachment ${index + 1} has a URL the agent cannot fetch (${verdict.scheme || 'not a URL'}): ${verdict.reason}; use https:, http:, data: or blob:.`,
      );
    }
    total += url.length;
  });
  const tooMuch = (bytes: number) =>
    new ChatwireError(
      'file-too-large',
      `The files of this message come to ${formatBytes(bytes)} as sent: one message may carry at most ${formatBytes(maxMessage)} (attachments.maxMessageBytes).`,
    );
  if (total > maxMessage) throw tooMuch(total);

  const parts = await Promise.all(
    files.map(async (file, index): Promise<FilePart> => {
      if (!isBlob(file)) {
        // A `FilePart` is such an input too (an edit keeps a message's files by passing them again).
        const { url, mimeType, filename, size } = file as { url: string; mimeType?: string; filename?: string; size?: unknown };
        return {
          type: 'file',
          url,
          mimeType: mimeType || mimeTypeOfUrl(url),
          ...(filename ? { filename: neutralizeBidi(filename) } : {}),
          ...(typeof size === 'number' ? { size } : {}),
        };
      }
      const mimeType = file.type || 'application/octet-stream';
      const described = { mimeType, size: file.size, ...((file as File).name ? { filename: neutralizeBidi((file as File).name) } : {}) };
      if (!upload) {
        let data: string;
        try {
          data = await toBase64(file);
        } catch (error) {
          throw new ChatwireError('invalid-file', `Could not read ${nameOf(file, index)}: ${describeError(error)}`, { cause: error });
        }
        return { type: 'file', url: `data:${mimeType};base64,${data}`, ...described };
      }
      let url: unknown;
      try {
        url = (await upload(file, { signal }))?.url;
      } catch (error) {
        if (signal.aborted)
          throw new ChatwireError('cancelled', 'Stopped while the files were uploading: nothing was sent.', { cause: error });
        throw new ChatwireError('upload-failed', `Uploading ${nameOf(file, index)} failed: ${describeError(error)}`, { cause: error });
      }
      if (typeof url !== 'string' || url === '')
        throw new ChatwireError('upload-failed', `uploadFile returned no URL for ${nameOf(file, index)}.`);
      return { type: 'file', url, ...described };
    }),
  );
  if (signal.aborted) throw new ChatwireError('cancelled', 'Stopped before the message was sent: nothing was sent.');
  if (upload) {
    const sent = parts.reduce((sum, part) => sum + part.url.length, 0);
    if (sent > maxMessage) throw tooMuch(sent);
  }
  return parts;
}

/**
 * A blob's bytes as base64. Browsers encode natively and off the main thread (FileReader); elsewhere
 * (Node) the bytes go through `btoa` in 32 KiB slices (a spread of 2 MiB would overflow the stack).
 */
async function toBase64(blob: Blob): Promise<string> {
  if (typeof FileReader === 'function') {
    const url = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
      reader.readAsDataURL(blob);
    });
    return url.slice(url.indexOf(',') + 1);
  }
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/**
 * Reads the files of the user's next message for `turn` (`ChatClient.sendMessage({ files })`): the
 * turn is preparing meanwhile (busy; `stop()` aborts the reading, and nothing is sent). Resolves
 * the file parts, or why the message cannot be sent: a refused file, a stop (`cancelled`), or
 * (`busy()`) a continuation an answer started meanwhile.
 */
export async function prepareAttachments(
  turn: Turn,
  signal: AbortSignal,
  files: ArrayLike<FileInput>,
  options: AttachmentOptions | undefined,
  busy: () => ChatwireError | undefined,
): Promise<FilePart[] | ChatwireError> {
  let parts: FilePart[];
  try {
    parts = await readAttachments(files, options, signal);
  } catch (error) {
    return error as ChatwireError;
  } finally {
    turn.prepared();
  }
  if (!turn.current) return new ChatwireError('cancelled', 'The message was stopped before it was sent.');
  return busy() ?? parts;
}
