/** The CRM's clock: record timestamps to the second, UTC, as the contract shows them. */

/** Formats the injected clock's time as "2026-11-22T05:47:58Z", remembering the last second (a bulk import asks thousands of times a second). */
export class SecondClock {
  private second = Number.NaN;
  private text = '';

  constructor(private readonly clock: () => Date = () => new Date()) {}

  /** The current time, "YYYY-MM-DDTHH:MM:SSZ". */
  now(): string {
    const second = Math.floor(this.clock().getTime() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return this.text;
  }
}
