import type { Locale } from '../../src/i18n/i18n.js';
import type { ModerationLogDoc } from '../place/moderationLogStore.js';
import { page } from './signInPages.js';
import { escapeHtml, webTexts } from './webText.js';

const DATE_LOCALE: Record<Locale, string> = { en: 'en-US', de: 'de-DE' };

/**
 * The public moderation log as a page (no script): the latest entries, newest first, with the
 * time in UTC written the reader's way, what was done, where, by which role, and why.
 */
export function moderationLogPage(locale: Locale, entries: readonly ModerationLogDoc[]): string {
  const { t } = webTexts(locale);
  const cell = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const rows = entries.map((entry) => {
    const at = entry.at.toLocaleString(DATE_LOCALE[locale], { timeZone: 'UTC' });
    const where = t(entry.name ? 'web:moderationLog.areaNamed' : 'web:moderationLog.area', {
      ...entry.area,
      name: entry.name ?? '',
    });
    return `<tr>${[
      cell(at),
      cell(t(`web:moderationLog.actions.${entry.action}`)),
      cell(where),
      cell(entry.pixels === undefined ? '' : t('web:moderationLog.pixels', { count: entry.pixels })),
      cell(t(`web:moderationLog.roles.${entry.role}`)),
      cell(entry.reason ?? ''),
    ].join('')}</tr>`;
  });
  const head = ['when', 'action', 'area', 'pixelsColumn', 'role', 'reason']
    .map((key) => `<th scope="col">${escapeHtml(t(`web:moderationLog.columns.${key}`))}</th>`)
    .join('');
  const table =
    rows.length === 0
      ? `<p class="muted">${escapeHtml(t('web:moderationLog.none'))}</p>`
      : `<table id="moderation-log"><thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`;
  return page(
    locale,
    t('web:moderationLog.title'),
    `<h2>${escapeHtml(t('web:moderationLog.heading'))}</h2>
<p>${escapeHtml(t('web:moderationLog.intro'))}</p>
<p class="muted">${escapeHtml(t('web:moderationLog.utc'))}</p>
${table}
<p><a href="/place">${escapeHtml(t('web:moderationLog.back'))}</a></p>`,
  );
}
