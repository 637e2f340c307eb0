import { beforeAll, describe, expect, it } from 'vitest';
import { replyPageHtml } from '../../shots/discordHtml.js';
import { markup } from '../../shots/discordMarkup.js';
import {
  CASTS,
  openServers,
  type Scene,
  type Server,
  shopScenes,
  tradeScenes,
} from '../../shots/discordStage.js';
import { ConsoleRoles } from '../../src/console/consoleRoles.js';
import type { Reply } from '../../src/interactions/types.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('shots_discord');
const NAMES: Record<string, string> = { '<@42>': '@Ada', '<@&7>': '@VIP', '<#9>': '#shop' };
const plain = (token: string) => NAMES[token] ?? 'in 2 hours';

/** Every text of a reply, as one string to look for words and numbers in. */
const texts = (reply: Reply | undefined) =>
  JSON.stringify([reply?.content, reply?.embeds, reply?.buttons, reply?.select]);

describe('the shop as members see it in Discord, for the pictures of npm run shots', () => {
  const scenes: Record<string, Scene[]> = {};

  beforeAll(async () => {
    const roles = new ConsoleRoles();
    const moderators = `${CASTS.en.moderator.id},${CASTS.de.moderator.id}`;
    const { deps } = makeBotDeps(t, { roles, env: { MODERATOR_USER_IDS: moderators } });
    const servers = openServers(deps, roles);
    // As the shots stage them: a step refused or failed throws.
    const stage = async (server: Server) => [
      ...(await shopScenes(deps, server)),
      ...(await tradeScenes(deps, server)),
    ];
    [scenes.en, scenes.de] = await Promise.all([stage(servers.en), stage(servers.de)]);
  });

  it('GIVEN the shop stocked and used through the real commands THEN every scene has a reply, in the server language', () => {
    for (const locale of ['en', 'de'] as const) {
      const byName = new Map(scenes[locale]?.map((s) => [s.name, s.exchange.replies.at(-1)]));
      expect([...byName.values()].every((reply) => reply !== undefined)).toBe(true);
      expect(byName.get('shop-browse')?.select?.options).toHaveLength(4);
      expect(texts(byName.get('shop-item'))).toContain(
        locale === 'en' ? 'Buy for 300 🍪' : 'Für 300 🍪 kaufen',
      );
      expect(byName.get('inventory-item')?.buttons).toHaveLength(2);
      const refusal = byName.get('shop-refused');
      expect(refusal?.ephemeral).toBe(true);
      expect(texts(refusal)).toMatch(/120.*2[.,]000/);
    }
  });

  it('GIVEN Discord markup THEN mentions, bold around them, code and emoji become HTML, and the rest is escaped', () => {
    const html = markup('**<@42>** has <@&7> in <#9> <t:99:R> `a **b**` <i> 🍪', plain);
    expect(html).toContain('<strong><span class="mention">@Ada</span></strong>');
    expect(html).toContain('<span class="mention">@VIP</span> in <span class="mention">#shop</span>');
    expect(html).toContain('<span class="time">in 2 hours</span>');
    expect(html).toContain('<code>a **b**</code>');
    expect(html).toContain('&lt;i&gt;');
    expect(html).toMatch(/<img class="emoji" alt="🍪" src="data:image\/svg\+xml;base64,/);
  });

  it('GIVEN an ephemeral reply with its menu open THEN the page lists the options and says who sees it, in German too', () => {
    const reply: Reply = {
      ephemeral: true,
      content: 'Hallo',
      select: {
        customId: 'x',
        placeholder: 'Wähle',
        options: [{ label: 'Los', value: 'a', description: 'Ein Los' }],
      },
    };
    const page = { replies: [reply], member: 'Jörg', command: '/laden stöbern', time: '15:05', plain };
    const de = replyPageHtml({ ...page, locale: 'de', menuOpen: true });
    expect(de).toContain('Nur du kannst das sehen');
    expect(de).toContain('<div class="option-text">Ein Los</div>');
    expect(replyPageHtml({ ...page, locale: 'en' })).not.toContain('class="options"');
  });
});
