/**
 * A reply of the bot as Discord's dark theme shows it, as one HTML page for a screenshot: the
 * line naming the command a member used, the bot's name and the time, the content, embeds
 * (colour bar, title, description, fields, footer), a select menu closed or open, buttons by
 * style, Link buttons, "Only you can see this" under an ephemeral one, and a form (modal) as
 * the dialog Discord opens over the chat. The Discord client's own words
 * are in the member's language.
 */
import type { Locale } from '../src/i18n/i18n.js';
import { CONTINUED_FIELD } from '../src/interactions/layout.js';
import type {
  ButtonSpec,
  EmbedSpec,
  LinkSpec,
  ModalSpec,
  Reply,
  SelectSpec,
} from '../src/interactions/types.js';
import { escapeHtml, markup, type PlainText, withEmoji } from './discordMarkup.js';

/** What Discord's client itself says around a message. */
const CLIENT: Record<
  Locale,
  {
    used: readonly [string, string];
    only: string;
    dismiss: string;
    today: string;
    cancel: string;
    submit: string;
  }
> = {
  en: {
    /** The words between the member and the command, and after the command. */
    used: [' used ', ''],
    only: 'Only you can see this',
    dismiss: 'Dismiss message',
    today: 'Today at',
    cancel: 'Cancel',
    submit: 'Submit',
  },
  de: {
    used: [' hat ', ' verwendet'],
    only: 'Nur du kannst das sehen',
    dismiss: 'Nachricht verwerfen',
    today: 'Heute um',
    cancel: 'Abbrechen',
    submit: 'Absenden',
  },
};

/** One picture: the messages a member's interaction got, and how to write them. */
export interface ReplyPage {
  replies: readonly Reply[];
  locale: Locale;
  /** The member and the command (in their language) the header line names. */
  member: string;
  command: string;
  /** When the bot answered, as the member's client writes the time. */
  time: string;
  /** The menu of the last reply shown opened, its options listed. */
  menuOpen?: boolean;
  plain: PlainText;
}

const BUTTON_COLOURS: Record<ButtonSpec['style'], string> = {
  primary: '#5865f2',
  secondary: '#4e5058',
  success: '#248046',
  danger: '#da373c',
};

function embedHtml(embed: EmbedSpec, plain: PlainText): string {
  const colour = embed.color === undefined ? '#1e1f22' : `#${embed.color.toString(16).padStart(6, '0')}`;
  const fields = (embed.fields ?? [])
    .map((field) => {
      const name =
        field.name === CONTINUED_FIELD ? '' : `<div class="field-name">${markup(field.name, plain)}</div>`;
      return `<div class="field${field.inline ? ' inline' : ''}">${name}<div class="field-value">${markup(field.value, plain)}</div></div>`;
    })
    .join('');
  return [
    `<div class="embed" style="border-left-color:${colour}">`,
    embed.title ? `<div class="embed-title">${markup(embed.title, plain)}</div>` : '',
    embed.description ? `<div class="embed-text">${markup(embed.description, plain)}</div>` : '',
    fields ? `<div class="fields">${fields}</div>` : '',
    embed.imageFile ? `<div class="embed-image">${escapeHtml(embed.imageFile)}</div>` : '',
    embed.footer ? `<div class="embed-footer">${markup(embed.footer, plain)}</div>` : '',
    '</div>',
  ].join('');
}

function selectHtml(select: SelectSpec, open: boolean): string {
  const closed = `<div class="select${open ? ' open' : ''}"><span>${withEmoji(select.placeholder)}</span><span class="chevron">⌄</span></div>`;
  if (!open) return closed;
  const options = select.options
    .map(
      (option) =>
        `<div class="option"><div class="option-label">${withEmoji(option.label)}</div>` +
        (option.description ? `<div class="option-text">${withEmoji(option.description)}</div>` : '') +
        '</div>',
    )
    .join('');
  return `${closed}<div class="options">${options}</div>`;
}

function buttonsHtml(buttons: readonly ButtonSpec[]): string {
  const html = buttons
    .map(
      (button) =>
        `<span class="button${button.disabled ? ' disabled' : ''}" style="background:${BUTTON_COLOURS[button.style]}">` +
        `${button.emoji ? withEmoji(button.emoji) : ''}${withEmoji(button.label)}</span>`,
    )
    .join('');
  return html ? `<div class="buttons">${html}</div>` : '';
}

/** Link buttons: grey, with the arrow Discord draws for a page that opens outside it. */
function linksHtml(links: readonly LinkSpec[]): string {
  const html = links
    .map(
      (link) =>
        `<span class="button" style="background:${BUTTON_COLOURS.secondary}">` +
        `${link.emoji ? withEmoji(link.emoji) : ''}${withEmoji(link.label)}<span class="out">↗</span></span>`,
    )
    .join('');
  return html ? `<div class="buttons">${html}</div>` : '';
}

/** A form over the dimmed chat: its title, each box with its label and hint, Cancel and Submit. */
function modalHtml(modal: ModalSpec, locale: Locale): string {
  const words = CLIENT[locale];
  const boxes = modal.inputs
    .map(
      (input) =>
        `<div class="box"><div class="box-label">${withEmoji(input.label)}${input.required === false ? '' : '<span class="needed"> *</span>'}</div>` +
        `<div class="box-input${input.value ? '' : ' hint'}">${withEmoji(input.value ?? input.placeholder ?? '')}</div></div>`,
    )
    .join('');
  return (
    `<div class="dim"><div class="modal"><div class="modal-head"><div class="modal-title">${withEmoji(modal.title)}</div><span class="close">✕</span></div>` +
    `${boxes}<div class="modal-foot"><span class="cancel">${escapeHtml(words.cancel)}</span>` +
    `<span class="button" style="background:${BUTTON_COLOURS.primary}">${escapeHtml(words.submit)}</span></div></div></div>`
  );
}

function messageHtml(reply: Reply, page: ReplyPage, open: boolean, first: boolean): string {
  if (reply.modal) return modalHtml(reply.modal, page.locale);
  const words = CLIENT[page.locale];
  const [between, after] = words.used;
  const header = first
    ? `<div class="used"><span class="used-line"></span><span class="who">@${escapeHtml(page.member)}</span>` +
      `${escapeHtml(between)}<span class="command">${escapeHtml(page.command)}</span>${escapeHtml(after)}</div>`
    : '';
  const top = first
    ? `<div class="head"><span class="bot">Cookie Place</span><span class="tag">APP</span><span class="stamp">${escapeHtml(`${words.today} ${page.time}`)}</span></div>`
    : '';
  return [
    `<div class="message${first ? '' : ' follow'}">`,
    header,
    `<div class="row"><div class="avatar">${first ? withEmoji('🍪') : ''}</div><div class="body">`,
    top,
    reply.content ? `<div class="content">${markup(reply.content, page.plain)}</div>` : '',
    ...(reply.embeds ?? []).map((embed) => embedHtml(embed, page.plain)),
    reply.select ? selectHtml(reply.select, open) : '',
    buttonsHtml(reply.buttons ?? []),
    linksHtml(reply.links ?? []),
    reply.ephemeral
      ? `<div class="ephemeral">${withEmoji('👁️')} ${escapeHtml(words.only)} · <span class="link">${escapeHtml(words.dismiss)}</span></div>`
      : '',
    '</div></div></div>',
  ].join('');
}

/** The whole page: the messages one after another, at the width of a phone's chat column. */
export function replyPageHtml(page: ReplyPage): string {
  const last = page.replies.length - 1;
  const messages = page.replies
    .map((reply, i) => messageHtml(reply, page, page.menuOpen === true && i === last, i === 0))
    .join('');
  return `<!doctype html><html lang="${page.locale}"><head><meta charset="utf-8"><style>${CSS}</style></head><body>${messages}</body></html>`;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;padding:12px 0 14px;background:#313338;color:#dbdee1;font:15px/1.375 "gg sans","Noto Sans","DejaVu Sans",sans-serif;width:520px}
.message{padding:2px 14px 2px 0}
.message.follow{margin-top:6px}
.used{display:flex;align-items:center;gap:4px;margin-left:30px;font-size:13px;color:#b5bac1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.used-line{width:26px;height:10px;margin-top:8px;border-left:2px solid #4e5058;border-top:2px solid #4e5058;border-top-left-radius:6px;flex:none}
.used .who{color:#c9cdfb;font-weight:500}
.used .command{color:#00a8fc}
.row{display:flex;gap:12px}
.avatar{flex:none;width:40px;height:40px;margin-left:12px;border-radius:50%;background:#6d4c2f;display:flex;align-items:center;justify-content:center}
.avatar img{width:26px;height:26px}
.message.follow .avatar{background:none;height:0}
.body{min-width:0;flex:1}
.head{display:flex;align-items:baseline;gap:6px}
.bot{color:#f2f3f5;font-weight:600}
.tag{background:#5865f2;color:#fff;font-size:10px;font-weight:600;padding:1px 4px;border-radius:3px;position:relative;top:-2px}
.stamp{color:#949ba4;font-size:12px}
.content,.embed-text,.field-value{white-space:pre-wrap;overflow-wrap:anywhere}
.embed{margin-top:4px;background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 14px 14px 12px;font-size:13.5px;max-width:100%}
.embed-title{color:#f2f3f5;font-weight:600;font-size:15px;margin-top:6px}
.embed-text{margin-top:6px}
.fields{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin-top:8px}
.field{grid-column:1/-1}
.field.inline{grid-column:auto}
.field-name{color:#f2f3f5;font-weight:600;margin-bottom:2px}
.embed-footer{margin-top:8px;font-size:12px;color:#b5bac1}
.embed-image{margin-top:8px;color:#949ba4;font-style:italic}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;font-weight:500;border-radius:3px;padding:0 2px}
.time{background:rgba(255,255,255,.06);border-radius:3px;padding:0 2px}
code{background:#1e1f22;border:1px solid #1e1f22;border-radius:4px;padding:0 3px;font:85% "DejaVu Sans Mono",monospace}
.quote{display:block;border-left:4px solid #4e5058;padding-left:10px}
.subtext{font-size:12px;color:#949ba4}
.glued{white-space:nowrap}
img.emoji{width:1.375em;height:1.375em;vertical-align:-.3em;margin:0 .05em}
.select{margin-top:8px;height:40px;background:#1e1f22;border:1px solid #1e1f22;border-radius:4px;display:flex;align-items:center;justify-content:space-between;padding:0 8px 0 12px;color:#949ba4}
.select.open{border-color:#1e1f22;border-radius:4px 4px 0 0}
.select span:first-child{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.chevron{font-size:20px;line-height:1;margin-top:-6px;color:#dbdee1}
.options{background:#2b2d31;border:1px solid #1e1f22;border-top:none;border-radius:0 0 4px 4px}
.option{padding:8px 12px;border-top:1px solid #1e1f22}
.option:first-child{border-top:none;background:#35373c}
.option-label{color:#dbdee1;font-weight:500}
.option-text{color:#949ba4;font-size:13px}
.buttons{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.button{display:inline-flex;align-items:center;gap:6px;height:32px;padding:0 14px;border-radius:8px;color:#fff;font-size:14px;font-weight:500}
.button.disabled{opacity:.5}
.button img.emoji{width:18px;height:18px;vertical-align:0;margin:0}
.ephemeral{margin-top:6px;font-size:12px;color:#949ba4}
.ephemeral img.emoji{width:14px;height:14px;vertical-align:-2px}
.link{color:#00a8fc}
.out{font-size:13px;opacity:.8}
.dim{background:rgba(0,0,0,.7);padding:28px 18px}
.modal{background:#313338;border-radius:8px;padding:18px 16px 0;box-shadow:0 8px 16px rgba(0,0,0,.24)}
.modal-head{display:flex;justify-content:space-between;align-items:flex-start;margin-bottom:14px}
.modal-title{color:#f2f3f5;font-size:20px;font-weight:600}
.close{color:#b5bac1;font-size:16px}
.box{margin-bottom:16px}
.box-label{color:#b5bac1;font-size:12px;font-weight:700;text-transform:uppercase;margin-bottom:8px}
.needed{color:#f23f42}
.box-input{background:#1e1f22;border-radius:4px;padding:10px;color:#dbdee1;min-height:40px}
.box-input.hint{color:#87898c}
.modal-foot{display:flex;justify-content:flex-end;align-items:center;gap:20px;background:#2b2d31;margin:0 -16px;padding:16px;border-radius:0 0 8px 8px}
.cancel{color:#f2f3f5;font-size:14px}
`;
