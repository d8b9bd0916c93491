import type { ContentPart, Message } from '@ag-ui/core';

/** Bytes that start like a PNG file, `size` long (the content does not matter to the server). */
export function pngBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

/** A 12 KB (12,288-byte) PNG, base64. */
export const CAT_PNG = pngBytes(12 * 1024).toString('base64');
/** A small PDF-looking document, base64 (3,000 bytes). */
export const REPORT_PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3_000 - 9, 32)]).toString('base64');
/** A WAV-looking clip, base64 (2,048 bytes). */
export const CLIP_WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(2_044, 1)]).toString('base64');
/** A plain-text document, base64. */
export const NOTES_TXT = Buffer.from('Meeting notes: ship on Friday.\n', 'utf8').toString('base64');

/** A user message with these parts. */
export const userWith = (id: string, ...content: ContentPart[]): Message => ({ id, role: 'user', content });

export const text = (value: string): ContentPart => ({ type: 'text', text: value });
export const catImage: ContentPart = {
  type: 'image',
  source: { type: 'data', value: CAT_PNG, mimeType: 'image/png' },
  metadata: { filename: 'cat.png' },
};
export const reportPdf: ContentPart = {
  type: 'document',
  source: { type: 'data', value: REPORT_PDF, mimeType: 'application/pdf' },
  metadata: { filename: 'report.pdf' },
};
