import { transform } from 'sucrase';

/**
 * Turns the model's TypeScript into JavaScript that can be the body of an async function (so
 * top-level `await` and `return` work). Throw a {@link TypeScriptError} (or any error with a
 * `line`) for code that does not parse. May be async.
 */
export type TranspileHook = (typescript: string) => string | Promise<string>;

/** Code that does not parse as TypeScript; `line` is 1-based in the code the model wrote. */
export class TypeScriptError extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.name = 'TypeScriptError';
    this.line = line;
    this.column = column;
  }
}

const OPEN = 'async function __chatwire_code__() {\n';
const CLOSE = '\n}';

/**
 * The default {@link TranspileHook}: strips types with sucrase (pure JavaScript, no native
 * binary, about 1 ms for a typical snippet). The code is parsed inside an async function so
 * top-level `await`/`return` parse, and errors report lines of the code as written. A type
 * stripper only: no type checking, no down-levelling (QuickJS runs modern JavaScript).
 */
export function stripTypeScript(typescript: string): string {
  let output: string;
  try {
    output = transform(OPEN + typescript + CLOSE, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch (error) {
    const loc = (error as { loc?: { line?: unknown; column?: unknown } }).loc;
    const wrappedLine = typeof loc?.line === 'number' ? loc.line : undefined;
    const line = wrappedLine === undefined ? undefined : Math.max(1, wrappedLine - 1);
    const column = typeof loc?.column === 'number' ? loc.column + 1 : undefined;
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\(\d+:\d+\)\s*$/, '');
    throw new TypeScriptError(
      line === undefined ? reason : `${reason} (line ${line}${column === undefined ? '' : `, column ${column}`})`,
      line,
      column,
    );
  }
  // Sucrase keeps line breaks where they were, so the body sits between the first line and the last brace.
  if (!output.startsWith(OPEN.trimEnd())) throw new TypeScriptError('The TypeScript could not be transpiled.');
  return output.slice(OPEN.length, output.lastIndexOf('}')).replace(/\n$/, '');
}
