import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedHeapMbFromEnv, h2HeapMb, jvmOptions } from '../../src/db/mongoJavaServer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'java-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function h2File(mb: number): string {
  const file = path.join(dir, `db-${mb}.mv.db`);
  writeFileSync(file, '');
  truncateSync(file, mb * 2 ** 20);
  return file;
}

describe('the embedded database heap follows its data', () => {
  it('GIVEN an H2 file THEN the ceiling is 8 MB per MB of it, at least 256 MB, at most half the memory', () => {
    expect(h2HeapMb(path.join(dir, 'none.mv.db'), 16_384)).toBe(256);
    expect(h2HeapMb(h2File(10), 16_384)).toBe(256);
    expect(h2HeapMb(h2File(100), 16_384)).toBe(800);
    expect(h2HeapMb(h2File(100), 1_024)).toBe(512);
  });

  it('GIVEN the H2 backend THEN it runs the small collector and C1 on a heap that starts small, and EMBEDDED_DB_HEAP_MB replaces the ceiling', () => {
    const file = h2File(1);
    expect(jvmOptions({ kind: 'h2', file }, undefined)).toEqual(
      expect.arrayContaining([
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Xms8m',
        '-XX:+ExitOnOutOfMemoryError',
      ]),
    );
    expect(jvmOptions({ kind: 'h2', file }, 1_000).filter((o) => o.startsWith('-Xmx'))).toEqual([
      '-Xmx1000m',
    ]);
    expect(jvmOptions({ kind: 'memory' }, undefined)).toContain('-XX:MaxRAMPercentage=70');
    expect(jvmOptions({ kind: 'memory' }, 2_048)).toContain('-Xmx2048m');
  });

  it('GIVEN EMBEDDED_DB_HEAP_MB THEN a whole number of at least 32 is taken, an empty one is unset, anything else is refused by name', () => {
    expect(embeddedHeapMbFromEnv({ EMBEDDED_DB_HEAP_MB: '512' })).toBe(512);
    expect(embeddedHeapMbFromEnv({ EMBEDDED_DB_HEAP_MB: ' ' })).toBeUndefined();
    expect(embeddedHeapMbFromEnv({})).toBeUndefined();
    expect(() => embeddedHeapMbFromEnv({ EMBEDDED_DB_HEAP_MB: '16' })).toThrow(
      'EMBEDDED_DB_HEAP_MB: must be at least 32 (MB)',
    );
    expect(() => embeddedHeapMbFromEnv({ EMBEDDED_DB_HEAP_MB: 'lots' })).toThrow('EMBEDDED_DB_HEAP_MB');
  });
});
