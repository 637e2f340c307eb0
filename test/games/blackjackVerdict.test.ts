import { describe, expect, it } from 'vitest';
import { verdict } from '../../commands/games/blackjack.js';
import { ASSEMBLY } from '../../commands/index.js';
import { I18n } from '../../src/i18n/i18n.js';
import type { BlackjackState } from '../../utils/games/houseGames/blackjack/rules.js';

const i18n = new I18n(ASSEMBLY.messages);
const en = i18n.for('en');
const de = i18n.for('de');

/** Cards are 0–51: rank = card % 13 (0 ace, 9–12 ten to king). */
const hand = (player: number[], dealer: number[]): BlackjackState => ({
  deck: [],
  next: 0,
  player,
  dealer,
  doubled: false,
  phase: 'done',
});

describe('how a blackjack hand ended', () => {
  it.each([
    [
      'a player over 21',
      hand([9, 10, 4], [9, 6]),
      '💥 Bust: you went over 21.',
      '💥 Überkauft: Du hast mehr als 21.',
    ],
    [
      'a dealer over 21',
      hand([9, 7], [9, 5, 8]),
      '💥 The dealer went over 21.',
      '💥 Der Dealer hat sich überkauft.',
    ],
    ['a natural', hand([0, 12], [9, 8]), '🃏 Blackjack!', '🃏 Blackjack!'],
    [
      'a higher hand',
      hand([9, 9], [9, 7]),
      "Your 20 beats the dealer's 18.",
      'Deine 20 schlägt die 18 des Dealers.',
    ],
    [
      'a lower hand',
      hand([9, 6], [9, 7]),
      "The dealer's 18 beats your 17.",
      'Die 18 des Dealers schlägt deine 17.',
    ],
    ['a tie', hand([9, 7], [10, 7]), 'You and the dealer both have 18.', 'Du und der Dealer habt beide 18.'],
  ])('GIVEN %s THEN the hand says so in English and German', (_, state, english, german) => {
    expect(verdict(state, en)).toBe(english);
    expect(verdict(state, de)).toBe(german);
  });
});
