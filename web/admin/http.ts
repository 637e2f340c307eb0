import { ApiError, api } from '../api.js';

export { ApiError };

/** A read of the moderators' API, in the page's language (the server words its refusals in it). */
export function get<T>(path: string): Promise<T> {
  return api<T>(path);
}

/** A fresh Idempotency-Key: one per action a moderator means, reused by its retries and double clicks. */
export const newKey = (): string => crypto.randomUUID();

/** The keys of the writes the server answered as done (their forms take a new key). */
const answered = new Set<string>();

/** A write of the moderators' API with its Idempotency-Key. */
export async function post<T>(path: string, body: unknown, key: string): Promise<T> {
  const answer = await api<T>(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  });
  answered.add(key);
  return answer;
}

/** Whether a write with this key was answered as done; until then a retry must send the same key. */
export const wentThrough = (key: string): boolean => answered.has(key);

/** A query string of the filters that are set (`?kind=draw&client_id=…`), or nothing. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  return search.size > 0 ? `?${search}` : '';
}
