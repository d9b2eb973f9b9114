/**
 * A per-name async mutex: callers with the same name run one at a time, in arrival order.
 * findOrCreate holds its tenant+context's lock across find and write, so two concurrent
 * findOrCreate of the same new person in one process create one record.
 */
export class NamedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` when every earlier task of `name` has settled; returns its result. */
  async run<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(name, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }

  /** Names with a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
