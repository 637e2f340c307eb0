import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), served at `GET /metrics` by the HTTP server.
 * One registry per process: every shard or web process is its own scrape target.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];

export const metrics = {
  interactions: new Counter({
    name: 'bot_interactions_total',
    help: 'Slash commands, buttons and menus handled, by command and outcome (ok, refused, failed)',
    labelNames: ['command', 'outcome'] as const,
    registers,
  }),
  interactionSeconds: new Histogram({
    name: 'bot_interaction_duration_seconds',
    help: 'Time from receiving an interaction to its reply being sent, by command',
    labelNames: ['command'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  }),
  ledgerOperations: new Counter({
    name: 'bot_ledger_operations_total',
    help: 'Value-moving ledger operations, by type, currency and outcome (applied, replayed, refused, failed)',
    labelNames: ['type', 'currency', 'outcome'] as const,
    registers,
  }),
  placements: new Counter({
    name: 'bot_place_placements_total',
    help: 'Pixels placed (a replayed request is not counted again), by channel (discord, web)',
    labelNames: ['channel'] as const,
    registers,
  }),
  webSocketClients: new Gauge({
    name: 'bot_place_websocket_clients',
    help: 'Browsers connected to the live canvas',
    registers,
  }),
  schedulerJobs: new Counter({
    name: 'bot_scheduler_jobs_total',
    help: 'Durable timer runs, by kind and outcome (done, retry, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  }),
  holdsSwept: new Counter({
    name: 'bot_holds_swept_total',
    help: "Holds the sweep ended open past their deadline: each means a hold's own timer did not end it",
    registers,
  }),
  backups: new Counter({
    name: 'bot_backups_total',
    help: "The bot's own backups (BACKUP_DIR), by outcome (taken, failed)",
    labelNames: ['outcome'] as const,
    registers,
  }),
  lastBackup: new Gauge({
    name: 'bot_backup_last_success_timestamp_seconds',
    help: 'When this process last wrote a backup (Unix time): alert when it falls a day behind',
    registers,
  }),
  errors: new Counter({
    name: 'bot_errors_total',
    help: 'Refusals and failures shown to members, by error code (UNEXPECTED for bugs)',
    labelNames: ['code'] as const,
    registers,
  }),
};
