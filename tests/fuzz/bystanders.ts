/**
 * Signalling bystanders of a fuzz run: users in rooms the fuzz never names (one of the fuzzed app, one of another
 * app whose room id the fuzz uses in its own app). While the fuzz runs their requests and pushes keep working,
 * and afterwards they have seen nothing of it: no push about a user other than themselves and their newcomers.
 */
import { joinedClient, type FuzzApp, type SignalClient } from './signal-client.js';

export class SignalBystanders {
  readonly #clients: { client: SignalClient; app: FuzzApp; roomId: string; userId: string }[] = [];
  readonly #baseUrl: string;
  #newcomers = 0;

  private constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  /** Two users in each of `rooms`. */
  static async join(baseUrl: string, rooms: { app: FuzzApp; roomId: string }[]): Promise<SignalBystanders> {
    const bystanders = new SignalBystanders(baseUrl);
    for (const [r, { app, roomId }] of rooms.entries()) {
      for (const n of [0, 1]) {
        const userId = `bystander-${r}-${n}`;
        bystanders.#clients.push({ client: (await joinedClient(baseUrl, app, userId, roomId)).keepAlive(), app, roomId, userId });
      }
    }
    return bystanders;
  }

  get count(): number {
    return this.#clients.length;
  }

  /** Each room still works: heartbeats answer, a flag change reaches the other member, a newcomer is announced. */
  async stillWork(): Promise<void> {
    for (const { client } of this.#clients) {
      const beat = await client.request('heartbeat', {});
      if (beat.code !== 0) throw new Error(`a bystander's heartbeat answered ${beat.code}`);
    }
    for (let i = 0; i < this.#clients.length; i += 2) {
      const [a, b] = [this.#clients[i], this.#clients[i + 1]];
      const flag = 8 + (this.#newcomers % 2);
      const set = await a.client.request('mute-flag', { flag });
      if (set.code !== 0) throw new Error(`a bystander's mute-flag answered ${set.code}`);
      await b.client.push('publish-list', (d) => (d as { userList: { userId: string; flag: number }[] }).userList.some((u) => u.userId === a.userId && u.flag === flag));
      const userId = `newcomer-${this.#newcomers++}`;
      const newcomer = await joinedClient(this.#baseUrl, a.app, userId, a.roomId);
      await a.client.push('peer-join', (d) => (d as { userId: string }).userId === userId);
      newcomer.close();
      await b.client.push('peer-leave', (d) => (d as { userId: string }).userId === userId);
    }
  }

  /** Users the bystanders were told of that are neither bystanders nor newcomers (empty when the fuzz stayed out). */
  strangersSeen(): string[] {
    const known = new Set(this.#clients.map((c) => c.userId));
    return this.#clients.flatMap(({ client }) => client.pushes.flatMap((p) => {
      const data = p.data as { userId?: string; userList?: { userId: string }[] };
      const users = p.push === 'publish-list' ? (data.userList ?? []).map((u) => u.userId) : data.userId !== undefined ? [data.userId] : [];
      return users.filter((u) => !known.has(u) && !u.startsWith('newcomer-'));
    }));
  }

  /** Bystanders whose connection closed or who were told they are banned or kicked. */
  removed(): string[] {
    return this.#clients.filter(({ client }) => !client.open || client.pushes.some((p) => p.push === 'banned')).map((c) => c.userId);
  }

  close(): void {
    for (const { client } of this.#clients) client.close();
  }
}
