/** A refusal by the server: its code (the page words the common ones itself) and its message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request of the page's API. It asks for the page's language, so the server words its refusals
 * (a ban, not enough points) as the member reads them on Discord.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept-language')) headers.set('accept-language', document.documentElement.lang);
  const response = await fetch(path, { credentials: 'same-origin', ...init, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(
      body?.error?.code ?? 'UNEXPECTED',
      body?.error?.message ?? `${response.status} ${response.statusText}`,
    );
  }
  return body as T;
}
