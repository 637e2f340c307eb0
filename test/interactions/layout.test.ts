import { describe, expect, it } from 'vitest';
import {
  CONTINUED_FIELD,
  layOut,
  layOutOne,
  MESSAGE_LIMITS,
  splitText,
} from '../../src/interactions/layout.js';
import type { EmbedSpec, Reply } from '../../src/interactions/reply.js';

function embedTotal(embeds: EmbedSpec[]): number {
  return embeds.reduce(
    (sum, e) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );
}

/** Every limit Discord documents for one message, checked on a laid-out message. */
function withinLimits(message: Reply): void {
  expect(message.content?.length ?? 0).toBeLessThanOrEqual(MESSAGE_LIMITS.content);
  const embeds = message.embeds ?? [];
  expect(embeds.length).toBeLessThanOrEqual(MESSAGE_LIMITS.embedsPerMessage);
  expect(embedTotal(embeds)).toBeLessThanOrEqual(MESSAGE_LIMITS.embedTotal);
  for (const embed of embeds) {
    expect(embed.title?.length ?? 0).toBeLessThanOrEqual(MESSAGE_LIMITS.title);
    expect(embed.description?.length ?? 0).toBeLessThanOrEqual(MESSAGE_LIMITS.description);
    expect(embed.fields?.length ?? 0).toBeLessThanOrEqual(MESSAGE_LIMITS.fields);
    for (const field of embed.fields ?? []) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.name.length).toBeLessThanOrEqual(MESSAGE_LIMITS.fieldName);
      expect(field.value.length).toBeGreaterThan(0);
      expect(field.value.length).toBeLessThanOrEqual(MESSAGE_LIMITS.fieldValue);
    }
  }
  expect(message.files?.length ?? 0).toBeLessThanOrEqual(MESSAGE_LIMITS.filesPerMessage);
}

/** The lines of a setting list as an admin reads them: numbers with thousands separators. */
function settingLines(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `\`setting_${i}\` **1,234,567** (default 7,654,321) · changed by <@800000000000000001> <t:1796400000:R>`,
  );
}

describe('laying a reply out within Discord limits', () => {
  it('GIVEN a short reply THEN it is one message, unchanged', () => {
    const reply: Reply = {
      ephemeral: true,
      content: 'hi',
      embeds: [{ title: 't', fields: [{ name: 'a', value: 'b' }] }],
    };
    expect(layOut(reply)).toEqual([reply]);
  });

  it('GIVEN a field of 1,500 characters THEN it goes on in a field without a heading, cut between lines', () => {
    const lines = settingLines(14);
    const [message, ...more] = layOut({
      embeds: [{ title: 'Help', fields: [{ name: 'Administration', value: lines.join('\n') }] }],
    });
    expect(more).toEqual([]);
    const fields = message?.embeds?.[0]?.fields ?? [];
    expect(fields.map((f) => f.name)).toEqual(['Administration', CONTINUED_FIELD]);
    // Every line arrives whole, in order.
    expect(fields.flatMap((f) => f.value.split('\n'))).toEqual(lines);
    withinLimits(message as Reply);
  });

  it('GIVEN 80 settings changed (7,900 characters) THEN a second message of the same visibility carries the rest', () => {
    const fields = ['cookies', 'games', 'vault', 'poker', 'place', 'hunt', 'admin'].map((name, i) => ({
      name,
      value: settingLines(12)
        .map((l) => `${l} ${i}`)
        .join('\n'),
    }));
    const messages = layOut({
      ephemeral: true,
      embeds: [{ title: 'Settings', color: 5, fields, footer: 'Change one with /settings set' }],
    });
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      withinLimits(message);
      expect(message.ephemeral).toBe(true);
      expect(message.embeds?.every((e) => e.color === 5)).toBe(true);
    }
    const all = messages.flatMap((m) => m.embeds ?? []).flatMap((e) => e.fields ?? []);
    expect(all.flatMap((f) => f.value.split('\n'))).toEqual(fields.flatMap((f) => f.value.split('\n')));
    // The title opens the first message, the footer closes the last.
    expect(messages[0]?.embeds?.[0]?.title).toBe('Settings');
    expect(messages.at(-1)?.embeds?.at(-1)?.footer).toBe('Change one with /settings set');
  });

  it('GIVEN 30 fields THEN the first 25 and the next 5 are in two embeds', () => {
    const fields = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: `v${i}` }));
    const [message] = layOut({ embeds: [{ title: 'Many', fields }] });
    expect(message?.embeds?.map((e) => e.fields?.length)).toEqual([25, 5]);
    expect(message?.embeds?.[1]?.title).toBeUndefined();
  });

  it('GIVEN content of 4,500 characters THEN it is split between words into messages of at most 2,000', () => {
    const words = Array.from({ length: 900 }, (_, i) => `w${i}`).join(' ');
    const messages = layOut({
      content: words,
      buttons: [{ customId: 'x.y', label: 'Go', style: 'primary' }],
    });
    expect(messages.length).toBe(3);
    messages.forEach(withinLimits);
    expect(messages.map((m) => m.content).join(' ')).toBe(words);
    // The buttons stay on the first message, the one a later press updates.
    expect(messages[0]?.buttons).toHaveLength(1);
    expect(messages[1]?.buttons).toBeUndefined();
  });

  it('GIVEN an update with more than one message THEN only the first replaces the message, the rest follow', () => {
    const messages = layOut({ update: true, content: 'x '.repeat(1_500) });
    expect(messages[0]?.update).toBe(true);
    expect(messages.slice(1).every((m) => m.update === undefined)).toBe(true);
  });

  it('GIVEN a number wider than a line THEN no number is cut in two', () => {
    const text = `${'1.234.567 🍪 '.repeat(100)}`.trim();
    for (const piece of splitText(text, 50)) {
      expect(piece.length).toBeLessThanOrEqual(50);
      for (const word of piece.split(' ')) expect(['1.234.567', '🍪']).toContain(word);
    }
  });

  it('GIVEN a word longer than the limit THEN it is cut, never inside an emoji', () => {
    const pieces = splitText('🍪'.repeat(30), 7);
    expect(pieces.join('')).toBe('🍪'.repeat(30));
    for (const piece of pieces) expect(piece).toMatch(/^(🍪)+$/u);
  });

  it('GIVEN a message that must stay one THEN what does not fit is left out, said by an ellipsis', () => {
    const fields = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, value: 'x'.repeat(1_000) }));
    const one = layOutOne({ embeds: [{ title: 'Board', fields, footer: 'Table 1' }] });
    withinLimits(one);
    expect(one.embeds?.at(-1)?.footer).toMatch(/…$/);
  });

  it('GIVEN a button label of 100 characters THEN it is shortened to 80 with an ellipsis', () => {
    const [message] = layOut({ buttons: [{ customId: 'a.b', label: 'word '.repeat(20), style: 'primary' }] });
    const label = message?.buttons?.[0]?.label ?? '';
    expect(label.length).toBeLessThanOrEqual(MESSAGE_LIMITS.buttonLabel);
    expect(label.endsWith('…')).toBe(true);
  });
});
