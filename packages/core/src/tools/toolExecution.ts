import { describeError } from '../base/errors.js';
import { validateToolInput, validateToolOutput, type AnyTool, type ToolExecute } from './toolDefinition.js';

/** How one execution of a tool ended: the output and its JSON text, or an error for the model. */
export type ToolOutcome =
  | { readonly ok: true; readonly output: unknown; readonly content: string }
  | {
      readonly ok: false;
      readonly error: string;
      readonly content: string;
      /** What the implementation threw, when it threw (absent for validation errors, timeouts and stops). */
      readonly thrown?: unknown;
    };

const failure = (error: string, thrown?: { readonly error: unknown }): ToolOutcome => ({
  ok: false,
  error,
  content: JSON.stringify({ error }),
  ...(thrown ? { thrown: thrown.error } : {}),
});

type Ending =
  | { readonly kind: 'done'; readonly output: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'stopped' };

/**
 * Runs a tool implementation the same way on both sides: validates the input against the input
 * schema, enforces the tool's timeout and the abort signal, validates the output, and turns every
 * failure into an error the model can read and act on. Never throws.
 *
 * The tool receives its own `signal`: aborted when its timeout passes and when `context.signal`
 * aborts (the run stopped or ended, also after the tool returned). Tools must honour it (pass it to `fetch`, check it in loops):
 * work that ignores it keeps running after its result was given up on.
 */
export async function executeTool(
  tool: AnyTool & { readonly execute: ToolExecute<unknown, unknown> },
  rawInput: unknown,
  context: { readonly toolCallId: string; readonly signal: AbortSignal },
): Promise<ToolOutcome> {
  const input = await validateToolInput(tool, rawInput);
  if (!input.ok) return failure(input.error);
  return executeValidatedTool(tool, input.value, context);
}

/**
 * {@link executeTool} for input the caller already validated with the tool's input schema (the
 * validator's output, transforms applied): the schema is not applied again, so a schema that
 * transforms its input never receives its own output. Never throws.
 */
export async function executeValidatedTool(
  tool: AnyTool & { readonly execute: ToolExecute<unknown, unknown> },
  input: unknown,
  context: { readonly toolCallId: string; readonly signal: AbortSignal },
): Promise<ToolOutcome> {
  if (context.signal.aborted) return failure(`The call to '${tool.name}' was stopped before it started.`);

  const own = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ending = await new Promise<Ending>((resolve) => {
    timer = setTimeout(() => {
      own.abort(new Error(`'${tool.name}' timed out after ${tool.timeoutMs} ms`));
      resolve({ kind: 'timeout' });
    }, tool.timeoutMs);
    // This listener stays after the tool settles: when the caller's signal aborts later (the run
    // ended), work the tool left running on its signal stops too.
    context.signal.addEventListener(
      'abort',
      () => {
        own.abort(context.signal.reason);
        resolve({ kind: 'stopped' });
      },
      { once: true },
    );
    Promise.resolve()
      .then(() => tool.execute(input, { ...context, signal: own.signal }))
      .then(
        (output) => resolve({ kind: 'done', output }),
        (error: unknown) => resolve({ kind: 'threw', error }),
      );
  });
  clearTimeout(timer);

  switch (ending.kind) {
    case 'timeout':
      return failure(`Tool '${tool.name}' failed: timed out after ${tool.timeoutMs} ms`);
    case 'stopped':
      return failure(`Tool '${tool.name}' failed: stopped by the user`);
    case 'threw':
      return failure(`Tool '${tool.name}' failed: ${describeError(ending.error)}`, { error: ending.error });
    case 'done': {
      const checked = await validateToolOutput(tool, ending.output);
      if (!checked.ok) return failure(checked.error);
      let content: string;
      try {
        content = JSON.stringify(checked.value === undefined ? null : checked.value);
      } catch (error) {
        return failure(`Tool '${tool.name}' returned a value that is not JSON: ${describeError(error)}`);
      }
      return { ok: true, output: checked.value, content };
    }
  }
}
