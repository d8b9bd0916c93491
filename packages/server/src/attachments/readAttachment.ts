import type { AudioPart, ContentPart, DocumentPart, ImagePart, Message, VideoPart } from '@ag-ui/core';
import { neutralizeBidi } from '@chatwire/core/wire';

/** A media part of a user message (AG-UI 1.0): image, audio, video or document. */
export type MediaPart = ImagePart | AudioPart | VideoPart | DocumentPart;

/** What a media part carries, read once: the kind, a display name, the MIME type, and its bytes or where they are. */
export interface Attachment {
  readonly part: MediaPart;
  readonly kind: MediaPart['type'];
  /** `metadata.filename` (the convention Chatwire's client follows), else the URL's last path segment. */
  readonly name: string | undefined;
  /** The MIME type's essence, lowercased (`image/png`), when known. */
  readonly mimeType: string | undefined;
  /** Inline bytes (a `data` source, or a `data:` URL), base64. */
  readonly base64: string | undefined;
  /** Decoded size of the inline bytes. */
  readonly bytes: number | undefined;
  /** An `http(s)` URL the provider fetches. */
  readonly url: string | undefined;
  /** A provider's file handle, and who issued it when known. */
  readonly fileId: string | undefined;
  readonly provider: string | undefined;
}

/** Whether a content part is a media part. */
export const isMediaPart = (part: ContentPart): part is MediaPart => part.type !== 'text';

/** The media parts of a message (user messages carry them; other roles have none). */
export function mediaPartsOf(message: Message): MediaPart[] {
  if (message.role !== 'user' || !Array.isArray(message.content)) return [];
  return message.content.filter(isMediaPart);
}

/** The essence of a MIME type (`image/png` of `Image/PNG; x=1`), or `undefined` when it is not `type/subtype`. */
function mimeEssence(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 255) return undefined;
  const essence = (value.split(';', 1)[0] ?? '').trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) ? essence : undefined;
}

/**
 * The decoded size of standard, padded base64, or `undefined` when the text is not that. A loop over
 * the characters: linear, and nothing is decoded.
 */
function base64Size(text: string): number | undefined {
  if (text.length % 4 !== 0) return undefined;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const letterOrDigit =
      (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
    if (letterOrDigit && padding === 0) continue;
    // '=' only at the end, at most twice
    if (code === 61 && i >= text.length - 2) {
      padding++;
      continue;
    }
    return undefined;
  }
  return (text.length / 4) * 3 - padding;
}

/** A `data:<mime>;base64,<data>` URL's parts, or `undefined` for any other URL. */
function parseDataUrl(url: string): { readonly mimeType: string | undefined; readonly base64: string } | undefined {
  if (!url.slice(0, 5).toLowerCase().startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0 || comma > 300) return undefined;
  const header = url
    .slice(5, comma)
    .split(';')
    .map((piece) => piece.trim());
  if (header.at(-1)?.toLowerCase() !== 'base64') return undefined;
  return { mimeType: mimeEssence(header[0] || undefined), base64: url.slice(comma + 1) };
}

const lastPathSegment = (url: string): string | undefined => {
  try {
    const segment = new URL(url).pathname.split('/').filter(Boolean).at(-1);
    return segment ? neutralizeBidi(decodeURIComponent(segment)).slice(0, 255) : undefined;
  } catch {
    return undefined;
  }
};

/** Reads a media part (see {@link Attachment}); a `data:` URL counts as inline bytes. */
export function readAttachment(part: MediaPart): Attachment {
  const { source } = part;
  const metadata = (part.metadata ?? {}) as { filename?: unknown };
  // Shown to the model (and echoed in its reply) and in errors: bidi controls would reorder it there.
  const given = typeof metadata.filename === 'string' ? neutralizeBidi(metadata.filename).trim().slice(0, 255) : '';
  const filename = given === '' ? undefined : given;
  const base = { part, kind: part.type, fileId: undefined, provider: undefined, url: undefined, base64: undefined, bytes: undefined };
  if (source.type === 'data') {
    return { ...base, name: filename, mimeType: mimeEssence(source.mimeType), base64: source.value, bytes: base64Size(source.value) };
  }
  if (source.type === 'url') {
    const inline = parseDataUrl(source.value);
    if (inline)
      return {
        ...base,
        name: filename,
        mimeType: mimeEssence(source.mimeType) ?? inline.mimeType,
        base64: inline.base64,
        bytes: base64Size(inline.base64),
      };
    return { ...base, name: filename ?? lastPathSegment(source.value), mimeType: mimeEssence(source.mimeType), url: source.value };
  }
  return { ...base, name: filename, mimeType: mimeEssence(source.mimeType), fileId: source.value, provider: source.provider };
}

/** `12 KB`, `1.5 MB`, `512 bytes` (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const ARTICLE: Record<MediaPart['type'], string> = { image: 'an image', audio: 'an audio clip', video: 'a video', document: 'a document' };

/**
 * One attachment in words, for a model or a person: `an image named cat.png (image/png, 12 KB)`,
 * `a document at https://example.com/report.pdf (application/pdf)`, `an image with file id file-1 (openai)`.
 */
export function describeAttachment(attachment: Attachment): string {
  const details = [
    attachment.mimeType,
    attachment.bytes === undefined ? undefined : formatBytes(attachment.bytes),
    attachment.provider,
  ].filter(Boolean);
  const where = attachment.name
    ? ` named ${attachment.name}`
    : attachment.url
      ? ` at ${neutralizeBidi(attachment.url.length > 120 ? `${attachment.url.slice(0, 119)}…` : attachment.url)}`
      : attachment.fileId
        ? ` with file id ${neutralizeBidi(attachment.fileId.slice(0, 120))}`
        : '';
  return `${ARTICLE[attachment.kind]}${where}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/**
 * The text an adapter sends in place of an attachment its provider cannot take, so the model (and
 * through it the user) learns it was not seen, and the conversation stays sendable.
 */
export function attachmentNotSent(attachment: Attachment, reason: string): string {
  return `[Attachment not sent to the model: ${describeAttachment(attachment)}. ${reason}]`;
}
