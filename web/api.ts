/** A refusal by the server: its code (the page words the common ones itself) and its message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin', ...init });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(
      body?.error?.code ?? 'UNEXPECTED',
      body?.error?.message ?? `${response.status} ${response.statusText}`,
    );
  }
  return body as T;
}
