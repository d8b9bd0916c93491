import { describeError } from './errors.js';
import { validateToolInput, validateToolOutput, type AnyTool, type ToolExecute } from './toolDefinition.js';

/** How one execution of a tool ended: the output and its JSON text, or an error for the model. */
export type ToolOutcome =
  | { readonly ok: true; readonly output: unknown; readonly content: string }
  | { readonly ok: false; readonly error: string; readonly content: string };

const failure = (error: string): ToolOutcome => ({ ok: false, error, content: JSON.stringify({ error }) });

/**
 * Runs a tool implementation the same way on both sides: validates the input against the input
 * schema, enforces the tool's timeout and the abort signal, validates the output, and turns every
 * failure into an error the model can read and act on. Never throws.
 */
export async function executeTool(
  tool: AnyTool & { readonly execute: ToolExecute<unknown, unknown> },
  rawInput: unknown,
  context: { readonly toolCallId: string; readonly signal: AbortSignal },
): Promise<ToolOutcome> {
  const input = await validateToolInput(tool, rawInput);
  if (!input.ok) return failure(input.error);
  if (context.signal.aborted) return failure(`The call to '${tool.name}' was stopped before it started.`);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const output = await Promise.race([
      Promise.resolve().then(() => tool.execute(input.value, context)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${tool.timeoutMs} ms`)), tool.timeoutMs);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new Error('stopped by the user'));
        context.signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    const checked = await validateToolOutput(tool, output);
    if (!checked.ok) return failure(checked.error);
    const content = JSON.stringify(checked.value === undefined ? null : checked.value);
    return { ok: true, output: checked.value, content };
  } catch (error) {
    return failure(`Tool '${tool.name}' failed: ${describeError(error)}`);
  } finally {
    clearTimeout(timer);
    if (onAbort) context.signal.removeEventListener('abort', onAbort);
  }
}
