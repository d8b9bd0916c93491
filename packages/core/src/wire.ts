/**
 * `@chatwire/core/wire`: the stream-reading half of the client, on its own entry. `ChatClient` loads
 * these lazily while a request is under way, so an app's initial load does not carry them; import
 * them from here to read or check AG-UI streams yourself (servers, tests, custom connections), and
 * `fromWireMessages` to turn saved AG-UI messages into UI messages.
 *
 * @example
 * ```ts
 * import { parseWireEvent, readServerSentEvents } from '@chatwire/core/wire';
 * for await (const data of readServerSentEvents(response.body)) handle(parseWireEvent(JSON.parse(data)));
 * ```
 */
export { readServerSentEventMessages, readServerSentEvents } from './transport/sse.js';
export type { ServerSentEventMessage } from './transport/sse.js';
export { parseWireEvent } from './protocol/parseWireEvent.js';
export type { ParsedWireEvent } from './protocol/parseWireEvent.js';
export { advancePartialJson, initialPartialJsonState, readPartialJson } from './lifecycle/partialJson.js';
export type { PartialJsonState } from './lifecycle/partialJson.js';
export { argumentsDelta, argumentsEnd } from './lifecycle/streamedArguments.js';
export { fromWireMessages } from './model/fromWireMessages.js';
// The tool-name splitter (the search index's and the scripted model's) is exported here, not from
// `/shared`: esbuild, splitting chunks, put a module `/shared` re-exports into an app's initial load
// whenever a lazy chunk imported it too (0.7 kB gzip for @chatwire/react, measured by `npm run size`).
export { splitWords } from './discovery/splitWords.js';
// On this entry, not the main one: re-exported from there, they would join every app's initial load.
export { checkFileUrl, isSafeFileUrl } from './model/fileUrl.js';
export type { FileUrlPolicy, FileUrlVerdict } from './model/fileUrl.js';
export { neutralizeBidi } from './base/bidiControls.js';
export { reduceWireEvent } from './reduce/reduceWireEvent.js';
// Replaying recorded actions (devtools' time travel) needs the reducers they name registered.
export { loadEventReducers } from './reduce/routeEvent.js';
export { readModelCallUsage, readResultMetadata } from './protocol/protocolReaders.js';
// The shape checks the readers above use, for extensions' readers of their own events.
export { checkShape, isRecord } from './base/checkShape.js';
export type { Shape } from './base/checkShape.js';
export { CACHED_INPUT_PRICE, WARM_CACHE_MODEL, addModelCall, cacheSplit } from './model/conversationUsage.js';
export type { CacheSplit, ConversationUsage, LazyAgainstEager, ModelledCall } from './model/conversationUsage.js';
export type { DataPartSchemas, DataPartsOf } from './reduce/dataParts.js';
