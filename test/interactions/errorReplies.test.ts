import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { AppError } from '../../src/errors.js';
import { I18n } from '../../src/i18n/i18n.js';
import { describeAppError, presentError } from '../../src/interactions/errorReplies.js';

const messages = ASSEMBLY.errorMessages;
const english = new I18n(ASSEMBLY.messages).for('en');

describe('what members read when something is refused', () => {
  it.each([
    [
      new AppError('INSUFFICIENT_COOKIES', 'x', { balance: 1200, needed: 5000, currency: 'cookies' }),
      'Not enough: you have 1,200 🍪 but this needs 5,000 🍪.',
    ],
    [
      new AppError('INSUFFICIENT_PLACE_POINTS', 'x', { balance: 12_345, needed: 100_000, currency: 'place' }),
      'Not enough: you have 12.345 points but this needs 100 points.',
    ],
    [
      new AppError('HOUSE_VAULT_INSUFFICIENT', 'x', {
        balance: 150,
        reserve: 100,
        needed: 60,
        available: 50,
      }),
      'The house vault cannot pay 60 🍪 right now: it can pay out at most 50 🍪.',
    ],
    [
      new AppError('COOLDOWN_ACTIVE', 'x', { retryAt: Date.UTC(2026, 0, 1, 12, 0, 0) }),
      'You can do this again <t:1767268800:R>.',
    ],
    [
      new AppError('NOT_AUTHORIZED', 'x', { needs: 'moderator' }),
      'You are not allowed to do that: it needs moderator rights on this bot.',
    ],
    [
      new AppError('INVALID_INPUT', 'you cannot give Cookies to yourself'),
      'You cannot give Cookies to yourself.',
    ],
    [
      new AppError('FEATURE_DISABLED', 'x', {
        whatKey: 'cookies:errors.givingDisabled',
        setting: 'cookies.give_enabled',
      }),
      'Giving Cookies is switched off right now.',
    ],
    [
      new AppError('NOT_YOUR_BUTTON', 'x', { ownerId: '800000000000000002' }),
      'This button belongs to <@800000000000000002>. Run the command yourself to get your own.',
    ],
    [
      new AppError('GIVE_ABOVE_LIMIT', 'x', { amount: 2_000, max: 1_000 }),
      'At most 1,000 🍪 can be given at once; you asked to give 2,000 🍪.',
    ],
  ])('%s', (error, text) => {
    expect(describeAppError(error, messages, english)).toBe(text);
    expect(presentError(error, 'REF12345', messages, english)).toEqual({
      expected: true,
      reply: { ephemeral: true, content: `❌ ${text}` },
    });
  });

  it('shows only a reference for anything unexpected, never the error itself', () => {
    const presented = presentError(
      new TypeError('cannot read properties of undefined'),
      'ABCD1234',
      messages,
      english,
    );
    expect(presented.expected).toBe(false);
    expect(presented.reply.ephemeral).toBe(true);
    expect(presented.reply.content).toContain('Something went wrong (ref ABCD1234)');
    expect(presented.reply.content).not.toContain('undefined');
  });
});
