/** Encodes one event as an SSE frame: `data: <json>\n\n`. */
export function encodeServerSentEvent(event: unknown): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
