import type { Message } from '@ag-ui/core';
import { checkFileUrl } from '@chatwire/core/wire';
import { describeAttachment, formatBytes, mediaPartsOf, readAttachment } from './readAttachment.js';

/** Why a run input's attachments are refused: the status, code and message the handler answers with. */
export interface AttachmentRefusal {
  readonly status: 400 | 413;
  readonly code: 'invalid-attachment' | 'attachment-too-large' | 'too-many-attachments';
  readonly error: string;
}

const PREFIX: Record<string, string> = { image: 'image/', audio: 'audio/', video: 'video/' };

/**
 * Checks the media parts of a run input's user messages before anything runs: at most
 * `maxAttachments` in the whole input (the conversation is re-sent every turn, so earlier
 * attachments count), inline bytes valid base64 of at most `maxAttachmentBytes` each, a MIME type
 * that fits the part (`image/*` for an image, ...), and URLs that are `https:`, `http:` or a base64
 * `data:` URL. Nothing is fetched or decoded.
 */
export function checkAttachments(
  messages: readonly Message[],
  limits: { readonly maxAttachments: number; readonly maxAttachmentBytes: number },
): AttachmentRefusal | undefined {
  let count = 0;
  for (const message of messages) {
    for (const part of mediaPartsOf(message)) {
      count++;
      if (count > limits.maxAttachments) {
        const total = messages.reduce((sum, each) => sum + mediaPartsOf(each).length, 0);
        return {
          status: 413,
          code: 'too-many-attachments',
          error: `The run input carries ${total} attachments; this server accepts at most ${limits.maxAttachments} (\`limits.maxAttachments\`). The whole conversation is sent with every run, so earlier attachments count too: send large or many files as URLs.`,
        };
      }
      const attachment = readAttachment(part);
      const where = `${describeAttachment({ ...attachment, bytes: undefined })} in message '${message.id.slice(0, 80)}'`;
      const invalid = (why: string): AttachmentRefusal => ({
        status: 400,
        code: 'invalid-attachment',
        error: `Attachment ${where}: ${why}`,
      });
      const declared = part.source.mimeType;
      if (declared !== undefined && attachment.mimeType === undefined)
        return invalid(`its MIME type ${JSON.stringify(declared.slice(0, 80))} is not a type/subtype.`);
      const prefix = PREFIX[part.type];
      if (prefix && attachment.mimeType !== undefined && !attachment.mimeType.startsWith(prefix)) {
        return invalid(`a ${part.type} part needs a ${prefix}* MIME type (got ${attachment.mimeType}).`);
      }
      if (attachment.base64 !== undefined) {
        if (attachment.bytes === undefined) return invalid('its data is not standard base64 (A-Z, a-z, 0-9, +, /, padded with =).');
        if (attachment.mimeType === undefined) return invalid('inline data needs a MIME type.');
        if (attachment.bytes > limits.maxAttachmentBytes) {
          return {
            status: 413,
            code: 'attachment-too-large',
            error: `Attachment ${where} is ${formatBytes(attachment.bytes)}; this server accepts at most ${formatBytes(limits.maxAttachmentBytes)} per attachment (\`limits.maxAttachmentBytes\`). Upload it and send a URL instead.`,
          };
        }
      } else if (attachment.url !== undefined) {
        // The client's check (one implementation): read as a browser reads it. A data: URL that got
        // here is not the plain `data:<type>;base64,` form read as inline bytes above: refused too.
        const verdict = checkFileUrl(attachment.url, { dataTypes: [] });
        if (!verdict.ok) return invalid(`its URL must be https:, http: or a base64 data: URL (${verdict.reason}).`);
      } else if (attachment.fileId === undefined || attachment.fileId === '') {
        return invalid('its file source names no file.');
      }
    }
  }
  return undefined;
}
