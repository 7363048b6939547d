import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withBuildLock } from '../../src/server/console-build';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const out = path.join(dir, 'dist');
const lock = path.join(dir, '.dist.build-lock');
const holdAs = (pid: number) => {
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'pid'), String(pid));
};

describe('one console build of a folder at a time', () => {
  it('waits for a live holder (another start), says so once, and goes on when it is done', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      holdAs(process.ppid);
      let done = false;
      const waiting = withBuildLock(out, async () => done);
      await new Promise((r) => setTimeout(r, 700));
      done = true;
      fs.rmSync(lock, { recursive: true, force: true });
      expect(await waiting).toBe(true);
      expect(said.mock.calls).toEqual([[`[server] another start is building the console into ${out}: waiting for it`]]);
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      said.mockRestore();
    }
  });

  it('takes over the lock of a start that died mid-build', async () => {
    // A pid no process has (the kernel's limit is below it).
    holdAs(4_194_399);
    expect(await withBuildLock(out, async () => 'built')).toBe('built');
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over a lock holding its own pid: a predecessor’s, in a container restarted with the same pid', async () => {
    holdAs(process.pid);
    expect(await withBuildLock(out, async () => 'built')).toBe('built');
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('holds the lock while it builds, and leaves none after a failed build', async () => {
    await expect(
      withBuildLock(out, async () => {
        expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
        throw new Error('vite build failed (exit 1)');
      }),
    ).rejects.toThrow('vite build failed');
    expect(fs.existsSync(lock)).toBe(false);
  });
});
