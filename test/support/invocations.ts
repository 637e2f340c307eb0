import { BARE_INVOCATION, type Invocation } from '../../src/interactions/types.js';
import { MEMBER_ID } from './botHarness.js';

let counter = 0;

/** A slash command as the runtime receives it; override what the test is about. */
export function commandInvocation(overrides: Partial<Invocation> & { commandName: string }): Invocation {
  counter += 1;
  return {
    kind: 'command',
    id: `${Date.now()}${String(counter).padStart(6, '0')}`,
    ...BARE_INVOCATION,
    user: { id: MEMBER_ID, name: 'mia' },
    roleIds: [],
    guildId: null,
    locale: null,
    guildLocale: null,
    ...overrides,
  };
}
