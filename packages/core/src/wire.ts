/**
 * `@chatwire/core/wire`: the stream-reading half of the client, on its own entry. `ChatClient` loads
 * these lazily while a request is under way, so an app's initial load does not carry them; import
 * them from here to read or check AG-UI streams yourself (servers, tests, custom connections).
 *
 * @example
 * ```ts
 * import { parseWireEvent, readServerSentEvents } from '@chatwire/core/wire';
 * for await (const data of readServerSentEvents(response.body)) handle(parseWireEvent(JSON.parse(data)));
 * ```
 */
export { readServerSentEvents } from './sse.js';
export { parseWireEvent } from './parseWireEvent.js';
export type { ParsedWireEvent } from './parseWireEvent.js';
