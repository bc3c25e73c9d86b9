/**
 * Search parameters stay plain text. The router's default would JSON-parse them, turning an
 * OAuth `state=123` into a number and `state=true` into a boolean.
 */
export function parseSearch(search: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)) result[key] ??= value;
  return result;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (value !== undefined && value !== null) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
