import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCanvas, loadImage } from 'canvas';
import type { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileCardTexts } from '../../commands/cookies/profile.js';
import { ASSEMBLY } from '../../commands/index.js';
import { discordMembers } from '../../src/discord/discordMembers.js';
import { I18n } from '../../src/i18n/i18n.js';
import { AvatarCache } from '../../src/render/avatarCache.js';
import { discColor, initialsOf } from '../../src/render/canvasTools.js';
import { renderProfileCard } from '../../src/render/profileCard.js';

const i18n = new I18n(ASSEMBLY.messages);
const ANN = '410000000000006699';
const facts = {
  name: 'Ann Example',
  userId: ANN,
  profile: {
    userId: ANN,
    balance: 1_284,
    rank: 3,
    streak: 4,
    bestStreak: 9,
    collects: 2,
    collected: 86,
    stolen: 120,
    lostToThieves: 35,
    heists: 2,
    heistNet: 340,
  },
  games: { played: 3, won: 1, net: -60 },
  streak: { bonusPct: 10, maxDays: 7 },
};

const RED_PNG = (() => {
  const canvas = createCanvas(128, 128);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ff0000';
  g.fillRect(0, 0, 128, 128);
  return canvas.toBuffer('image/png');
})();

/** A stand-in for Discord's CDN: a red picture for Ann, nothing for others, and one URL that never answers. */
const requests: string[] = [];
const cdn = createServer((request, response) => {
  requests.push(request.url ?? '');
  if (request.url?.startsWith('/slow')) return;
  if (request.url?.startsWith(`/avatars/${ANN}/abc123.png`)) {
    response.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG);
  } else response.writeHead(404).end();
});
let base = '';
beforeAll(async () => {
  cdn.listen(0, '127.0.0.1');
  await once(cdn, 'listening');
  base = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
});
afterAll(() => {
  cdn.closeAllConnections();
  cdn.close();
});

/** Just the two look-ups discordMembers makes: the server's member, else the user. */
function fakeClient(users: Record<string, { avatar: string | null }>, asked: string[]) {
  const user = (id: string) => ({
    id,
    username: `user${id.slice(-2)}`,
    globalName: 'Ann Example',
    ...users[id],
  });
  return {
    guilds: {
      fetch: async () => ({ members: { fetch: async () => Promise.reject(new Error('unknown member')) } }),
    },
    users: {
      fetch: async (id: string) => {
        asked.push(id);
        if (!users[id]) throw new Error('unknown user');
        return user(id);
      },
    },
  } as unknown as Pick<Client, 'guilds' | 'users'>;
}

/** The colour a little left of the face's centre (clear of the initials). */
async function faceColor(png: Buffer): Promise<number[]> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  return [...g.getImageData(36 + 48 - 36, 36 + 48, 1, 1).data.slice(0, 3)];
}

describe('the profile card', () => {
  it('GIVEN a German reader THEN the card says Spiele and Siege, what was collected, and what the bar is', () => {
    const de = profileCardTexts(i18n.for('de'), facts);
    expect(de.stats).toContainEqual({ label: 'Spiele', value: '3 Spiele · 1 Sieg' });
    expect(de.stats).toContainEqual({ label: 'Gesammelt', value: '2× · 86 Kekse' });
    expect(de.stats).toContainEqual({ label: 'Erbeutet (Diebstahl)', value: '120 Kekse' });
    expect(de.stats).toContainEqual({ label: 'An Diebe verloren', value: '35 Kekse' });
    expect(de.streakLabel).toBe('Sammelserie: 4 Tage · +30 % auf jedes Sammeln · Rekord 9');
    expect(de.streakProgress).toBeCloseTo(3 / 7);
  });

  it('GIVEN an English reader THEN the labels say plainly what each number is', () => {
    const en = profileCardTexts(i18n.for('en'), { ...facts, games: { played: 1, won: 0, net: 0 } });
    expect(en.stats).toContainEqual({ label: 'Games', value: '1 game · 0 wins' });
    expect(en.stats).toContainEqual({ label: 'Collected', value: '2× · 86 Cookies' });
    expect(en.stats).toContainEqual({ label: 'Stolen by you', value: '120 Cookies' });
    expect(en.streakLabel).toBe('Collect streak: 4 days · +30 % on every collect · best 9');
  });

  it('GIVEN belongings from the shop THEN the card gets a line naming them, with counts, and grows to hold it; GIVEN none THEN no line', async () => {
    const owning = profileCardTexts(i18n.for('de'), {
      ...facts,
      belongings: [
        { name: 'Vorhängeschloss', count: 2 },
        { name: 'VIP', count: 1 },
      ],
    });
    expect(owning.belongings).toBe('Aus dem Laden: Vorhängeschloss ×2 · VIP');
    expect(profileCardTexts(i18n.for('en'), facts).belongings).toBeUndefined();
    const face = { picture: null, initials: 'AN', color: '#123456' };
    const [plain, taller] = await Promise.all([
      renderProfileCard({ ...profileCardTexts(i18n.for('de'), facts), face }),
      renderProfileCard({ ...owning, face }),
    ]);
    expect(taller.height).toBe(plain.height + 44);
  });

  it('GIVEN a member with a picture on Discord THEN the card shows it, fetched once; GIVEN none THEN their initials on their colour', async () => {
    const asked: string[] = [];
    const members = discordMembers(
      fakeClient({ [ANN]: { avatar: 'abc123' }, '42': { avatar: null } }, asked),
      {
        cdn: base,
      },
    );
    const texts = profileCardTexts(i18n.for('en'), facts);
    const card = async (id: string) => {
      const face = (await members.find('1', [id])).get(id);
      const picture = await members.picture(face?.avatarUrl ?? null);
      return renderProfileCard({
        ...texts,
        face: { picture, initials: initialsOf(face?.name ?? '?'), color: '#123456' },
      });
    };
    expect(await faceColor((await card(ANN)).png)).toEqual([255, 0, 0]);
    await card(ANN);
    expect(requests.filter((r) => r.startsWith('/avatars/')).length).toBe(1);
    expect(asked).toEqual([ANN]);
    expect(await faceColor((await card('42')).png)).toEqual([0x12, 0x34, 0x56]);
    expect(initialsOf('Ann Example')).toBe('AE');
    expect(discColor(ANN)).toBe(discColor(ANN));
  });

  it('GIVEN the CDN does not answer or has no picture THEN the picture is null within the timeout', async () => {
    const avatars = new AvatarCache({ timeoutMs: 300 });
    const started = Date.now();
    expect(await avatars.get(`${base}/slow/x.png`)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await avatars.get(`${base}/avatars/1/missing.png`)).toBeNull();
    expect(await avatars.get(null)).toBeNull();
  });
});
