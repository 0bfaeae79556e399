/**
 * Canonical JSON: the exact bytes a certificate's signature covers, so a buyer can rebuild them
 * from the JSON it was given in any language. Objects with their keys sorted by UTF-16 code
 * units (JavaScript's default sort; the keys used are ASCII, so byte order too), no whitespace,
 * strings and numbers written as JSON.stringify writes them, arrays in their order, keys whose
 * value is undefined left out. docs/lenders/protocol.md has a worked example.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
