import type { FastifyInstance } from 'fastify';
import { parseQuery } from '../../../src/http/params.js';
import { requestLocale } from '../../../src/i18n/i18n.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { renderEconomyImage } from '../../../src/render/economyImage.js';
import { economyPicture, flowTotal, MONTH, supplyLine } from '../../admin/economyPicture.js';
import type { WebGate } from './gate.js';

/**
 * The economy's health as `/admin economy health` shows it (admins): today's figures as JSON
 * for the portal to refresh, and the month's image in the reader's language.
 */
export function economyRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  app.get('/api/admin/economy', async (request) => {
    await gate.signedIn(request, 'admin');
    parseQuery({}, request.query);
    const i18n = deps.i18n.for(requestLocale(request.headers['accept-language']));
    const [report, supply] = await Promise.all([
      services.economy.report(MONTH),
      services.bakery.supplyState(),
    ]);
    const today = report.days.at(-1);
    const week = report.days.slice(-7);
    return {
      day: today?.day ?? null,
      members: report.members,
      gini: report.gini,
      supply: today?.supply ?? 0,
      vault: today?.vault ?? 0,
      reserve: report.reserve,
      week: { faucets: flowTotal(week, 'in'), sinks: flowTotal(week, 'out') },
      place: {
        points_today: Math.round(today?.placeEarned ?? 0),
        pixels_today: today?.pixels ?? 0,
      },
      supply_rule: supplyLine(supply, i18n),
    };
  });

  app.get('/api/admin/economy.png', async (request, reply) => {
    await gate.signedIn(request, 'admin');
    parseQuery({}, request.query);
    const i18n = deps.i18n.for(requestLocale(request.headers['accept-language']));
    const png = await renderEconomyImage(economyPicture(await services.economy.report(MONTH), i18n));
    return reply.type('image/png').header('cache-control', 'no-store').send(png);
  });
}
