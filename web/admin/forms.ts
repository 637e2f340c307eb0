import { t } from '../i18n.js';
import { h } from './dom.js';
import { ApiError, newKey, wentThrough } from './http.js';

/** Where a form says how it went: what was done, or why not (the server's words). */
export function outcome(): {
  element: HTMLElement;
  ok(text: string): void;
  fail(error: unknown): void;
  clear(): void;
} {
  const element = h('p', { role: 'status', 'aria-live': 'polite' });
  return {
    element,
    ok(text) {
      element.className = 'ok';
      element.textContent = text;
    },
    fail(error) {
      element.className = 'error';
      // The server's refusal is worded for the reader; a lost connection is said as such.
      element.textContent =
        error instanceof ApiError || !(error instanceof TypeError)
          ? (error as Error).message
          : t('portal.failed', { reason: error.message });
    },
    clear() {
      element.className = '';
      element.textContent = '';
    },
  };
}

/**
 * Submits a form once per action meant: one Idempotency-Key while its inputs stay as they are
 * (a retry or a second click sends the same, and the server acts once), a new one after the
 * server answered it as done or when an input changes; the button is off while the request is
 * out. A failed or lost answer keeps the key: the server may have acted, and the same key makes
 * a second click answer that action instead of doing it again.
 */
export function submitOnce(
  form: HTMLFormElement,
  act: (key: string, submitter: HTMLButtonElement | null) => Promise<void>,
): void {
  let key = newKey();
  let busy = false;
  const renew = () => {
    key = newKey();
  };
  form.addEventListener('input', renew);
  form.addEventListener('change', renew);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    const buttons = [...form.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    try {
      await act(key, submitter);
      if (wentThrough(key)) renew();
    } finally {
      busy = false;
      for (const b of buttons) b.disabled = false;
    }
  });
}
