import { describe, expect, it } from 'vitest';
import { startupLine } from '../../app/startupLine.js';
import { loadConfig } from '../../src/config.js';

const fromShell = { file: null, fromFile: new Set<string>() };

describe('the start-up line', () => {
  it('GIVEN no token THEN it says the local console opens, on the embedded database, and where links point', () => {
    const line = startupLine(loadConfig({}), fromShell, true);
    expect(line.text).toBe(
      'no DISCORD_TOKEN: local console; database embedded, persistent in ./data; sign-in links http://127.0.0.1:8787',
    );
    expect(line.warning).toBeNull();
  });

  it('GIVEN a listener every machine can reach and no PUBLIC_URL THEN it warns that phones cannot open the links', () => {
    const line = startupLine(loadConfig({ HTTP_HOST: '0.0.0.0', DISCORD_TOKEN: 'x' }), fromShell, true);
    expect(line.text).toContain('DISCORD_TOKEN set in the environment: connecting to Discord');
    expect(line.warning).toContain('PUBLIC_URL is not set: sign-in links point at http://0.0.0.0:8787');
  });

  it('GIVEN PUBLIC_URL THEN the links use it and nothing is said', () => {
    const config = loadConfig({ HTTP_HOST: '0.0.0.0', PUBLIC_URL: 'https://cookies.example.org' });
    const line = startupLine(config, fromShell, false);
    expect(line.text).toContain('sign-in links https://cookies.example.org');
    expect(line.text).toContain('database embedded, in memory');
    expect(line.warning).toBeNull();
  });
});
