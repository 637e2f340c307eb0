import type { FastifyInstance } from 'fastify';
import type { BotDeps } from '../../../src/interactions/types.js';
import type { WebGate } from './gate.js';

export function canvasModerationRoutes(_app: FastifyInstance, _deps: BotDeps, _gate: WebGate): void {}
