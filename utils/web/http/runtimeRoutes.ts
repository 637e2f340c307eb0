import type { FastifyInstance } from 'fastify';
import type { BotDeps } from '../../../src/interactions/types.js';
import type { WebGate } from './gate.js';

export function runtimeRoutes(_app: FastifyInstance, _deps: BotDeps, _gate: WebGate): void {}
