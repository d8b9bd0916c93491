import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ensureAssistantTurn, mapLastAssistant, noCallChanges, type Reduction, type WireEventAction } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import type { DataPart, MessagePart } from '../model/messages.js';
import { validateWithSchema, type InferSchemaOutput } from '../tools/toolSchema.js';

/**
 * Data parts: `CUSTOM` events whose name the app declared (`dataParts`) become `data` parts of the
 * assistant message. The run loop imports this module the first time a declared event arrives, so
 * apps that declare none never load it.
 */

/**
 * The data parts an app declares, by `CUSTOM` event name: a Standard Schema validator the data must
 * pass (zod, valibot, arktype, `jsonSchema()`), or `true` to take it unchecked.
 */
export type DataPartSchemas = Readonly<Record<string, StandardSchemaV1 | true>>;

/** The typed data parts declared schemas produce: one `DataPart<name, data>` per name. */
export type DataPartsOf<Schemas extends DataPartSchemas> = {
  [Name in keyof Schemas & string]: DataPart<Name, Schemas[Name] extends true ? unknown : InferSchemaOutput<Schemas[Name]>>;
}[keyof Schemas & string];

/**
 * Reads a declared event's value, `{ data, id? }`, and checks `data` with the declared schema.
 * Resolves the checked part (which `wireEvent` actions carry to {@link reduceDataPart}), or a
 * warning saying why the event was dropped.
 */
export async function readDataPart(
  name: string,
  value: unknown,
  schema: StandardSchemaV1 | true,
): Promise<{ readonly part: DataPart } | { readonly warning: string }> {
  const envelope = value as { id?: unknown; data?: unknown } | null | undefined;
  const id = envelope?.id;
  if (typeof envelope !== 'object' || envelope === null || !('data' in envelope) || (id !== undefined && typeof id !== 'string')) {
    return { warning: `Dropped a '${name}' data part: its CUSTOM value must be { data, id? } with a string id.` };
  }
  let data = envelope.data;
  if (schema !== true) {
    let checked: Awaited<ReturnType<typeof validateWithSchema>>;
    try {
      checked = await validateWithSchema(schema, data);
    } catch (error) {
      checked = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (!checked.ok) return { warning: `Dropped a '${name}' data part that does not match its schema: ${checked.error}` };
    data = checked.value;
  }
  const part: DataPart = { type: 'data', name, ...(id === undefined ? {} : { id }), data };
  return { part };
}

/** Puts the action's data part on the current assistant message, replacing the part with the same name and id. */
export function reduceDataPart(state: ChatState, action: WireEventAction): Reduction {
  const part = action.dataPart;
  if (!part) return noCallChanges(state);
  const next = mapLastAssistant(ensureAssistantTurn(state, action.now), (parts) => {
    const index =
      part.id === undefined
        ? -1
        : parts.findIndex((item: MessagePart) => item.type === 'data' && item.name === part.name && item.id === part.id);
    if (index < 0) return [...parts, part];
    const copy = parts.slice();
    copy[index] = part;
    return copy;
  });
  return noCallChanges(next.status === 'streaming' ? next : { ...next, status: 'streaming' });
}
