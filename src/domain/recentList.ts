/**
 * A list that keeps only its newest `limit` items: what a process notes for later reading (test
 * checks, diagnostics) must not grow with traffic when nobody reads it.
 */
export class RecentList<T> {
  private items: T[] = [];

  constructor(private max: number) {}

  get limit(): number {
    return this.max;
  }

  get size(): number {
    return this.items.length;
  }

  /** A smaller limit drops the oldest items at once. */
  setLimit(max: number): void {
    this.max = max;
    this.trim();
  }

  push(item: T): void {
    this.items.push(item);
    this.trim();
  }

  /** Every item, oldest first, and empties the list. */
  take(): T[] {
    return this.items.splice(0);
  }

  private trim(): void {
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
  }
}
