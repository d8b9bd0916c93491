/**
 * A field spec: `s` string, `n` finite number, `b` boolean, `o` plain object, `S` array of strings,
 * `*` anything but `undefined`, or a nested spec for a plain object. A key ending in `?` is optional.
 */
export type Shape = { readonly [field: string]: 's' | 'n' | 'b' | 'o' | 'S' | '*' | Shape };

/** Whether `value` is a plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const EXPECTED = { s: 'a string', n: 'a finite number', b: 'a boolean', o: 'an object', S: 'an array of strings', '*': 'present' } as const;

/**
 * Checks `value` against `shape` (hand-written instead of a schema library, so the browser bundle
 * stays small); returns the first problem as "`path` must be ..." or `undefined` when it fits.
 */
export function checkShape(value: Record<string, unknown>, shape: Shape, prefix = ''): string | undefined {
  for (const key in shape) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const field = value[name];
    if (optional && field === undefined) continue;
    const spec = shape[key] as Shape[string];
    const path = prefix + name;
    if (typeof spec === 'object') {
      if (!isRecord(field)) return `\`${path}\` must be an object (got ${typeOf(field)})`;
      const problem = checkShape(field, spec, `${path}.`);
      if (problem) return problem;
    } else if (!fits(field, spec)) {
      return `\`${path}\` must be ${EXPECTED[spec]}${optional ? ' when present' : ''} (got ${typeOf(field)})`;
    }
  }
  return undefined;
}

function fits(value: unknown, spec: keyof typeof EXPECTED): boolean {
  switch (spec) {
    case 's':
      return typeof value === 'string';
    case 'n':
      return typeof value === 'number' && Number.isFinite(value);
    case 'b':
      return typeof value === 'boolean';
    case 'o':
      return isRecord(value);
    case 'S':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case '*':
      return value !== undefined;
  }
}

/** `null`, `an array`, or the `typeof` of a value, for error messages. */
export function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
