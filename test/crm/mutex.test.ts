import { describe, expect, it } from 'vitest';
import { NamedMutex } from '../../src/crm/mutex.js';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('NamedMutex', () => {
  it('runs tasks of one name one at a time, in arrival order', async () => {
    const m = new NamedMutex();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, ms: number) => async (): Promise<string> => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all([m.run('k', task('a', 20)), m.run('k', task('b', 1)), m.run('k', task('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(m.size).toBe(0);
  });

  it('different names do not wait for each other', async () => {
    const m = new NamedMutex();
    const order: string[] = [];
    await Promise.all([
      m.run('x', async () => {
        await tick(30);
        order.push('x');
      }),
      m.run('y', async () => {
        order.push('y');
      }),
    ]);
    expect(order).toEqual(['y', 'x']);
  });

  it('a failing task releases the lock', async () => {
    const m = new NamedMutex();
    await expect(
      m.run('k', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await m.run('k', async () => 1)).toBe(1);
    expect(m.size).toBe(0);
  });
});
