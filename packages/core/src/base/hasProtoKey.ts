/** Whether `value` holds a `__proto__` key at any depth (such content is refused everywhere). */
export function hasProtoKey(value: unknown, depth = 0): boolean {
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasProtoKey(item, depth + 1));
  return Object.keys(value).some((key) => key === '__proto__' || hasProtoKey((value as Record<string, unknown>)[key], depth + 1));
}
