import { describe, expect, it } from 'vitest';
import { mentionedIds, plainText } from '../../utils/web/plainText.js';

const ANN = '896000000000000001';
const BEN = '896000000000000002';
const names = new Map([
  [ANN, 'ann'],
  [BEN, 'ben_the_baker'],
]);
const plain = (text: string) => plainText(text, (id) => names.get(id));

describe('a Discord line as plain text', () => {
  it('GIVEN mentions of members THEN each reads @name, and an id without a name reads @id', () => {
    expect(plain(`🎁 <@${ANN}> granted 10 Cookies to <@!${BEN}>.`)).toBe(
      '🎁 @ann granted 10 Cookies to @ben_the_baker.',
    );
    expect(plain('<@896000000000000099> and <@former-0a1b2c3d4e>')).toBe(
      '@896000000000000099 and @former-0a1b2c3d4e',
    );
  });

  it('GIVEN channel and role mentions THEN they read #id and @&id', () => {
    expect(plain('in <#896000000000000050> for <@&896000000000000060>')).toBe(
      'in #896000000000000050 for @&896000000000000060',
    );
  });

  it('GIVEN timestamps in any style THEN each reads as its ISO time', () => {
    expect(plain('until <t:1800000000:f> (<t:1800000000:R>), from <t:0>')).toBe(
      'until 2027-01-15T08:00:00.000Z (2027-01-15T08:00:00.000Z), from 1970-01-01T00:00:00.000Z',
    );
  });

  it('GIVEN bold, italics, strike-through and code THEN the markup goes and underscores inside words stay', () => {
    expect(plain('⚙️ <@896000000000000001> changed **place_enabled**: on → **off**.')).toBe(
      '⚙️ @ann changed place_enabled: on → off.',
    );
    expect(plain('they are now `former-0a1b2c3d4e`')).toBe('they are now former-0a1b2c3d4e');
    expect(plain('_quietly_ and *softly*, __under__ ~~gone~~')).toBe('quietly and softly, under gone');
    expect(plain('```\nraw block\n``` and 2*3*4 and snake_case_name')).toBe(
      '\nraw block\n and 2*3*4 and snake_case_name',
    );
  });

  it('GIVEN a member whose name has markup characters THEN the name stays as it is', () => {
    expect(plain(`by <@${BEN}>, **done**`)).toBe('by @ben_the_baker, done');
    expect(plainText(`<@${ANN}>`, () => '**star**')).toBe('@**star**');
  });

  it('GIVEN a line THEN the ids it mentions are listed once each', () => {
    expect(mentionedIds(`<@${ANN}> <@!${BEN}> <@${ANN}> <#1> <@&2>`)).toEqual([ANN, BEN]);
  });
});
