/** Open signalling connections, counted per client address, for the per-IP limit and the metrics. */
export class ConnectionTracker {
  readonly #perAddress = new Map<string, number>();
  #total = 0;

  /** Counts a new connection from `address` if that address is under `limit`; false (not counted) otherwise. */
  open(address: string, limit: number): boolean {
    const count = this.#perAddress.get(address) ?? 0;
    if (count >= limit) return false;
    this.#perAddress.set(address, count + 1);
    this.#total++;
    return true;
  }

  /** A counted connection closed. */
  close(address: string): void {
    const count = this.#perAddress.get(address) ?? 0;
    if (count <= 0) return;
    this.#total--;
    if (count === 1) this.#perAddress.delete(address);
    else this.#perAddress.set(address, count - 1);
  }

  /** Open connections from one address. */
  count(address: string): number {
    return this.#perAddress.get(address) ?? 0;
  }

  get total(): number {
    return this.#total;
  }
}
