/**
 * The active phase: on a 100 ms tick, random users change their publish flags, switch role, or leave and
 * join again, at the plan's rates. Everything they received meanwhile is counted by the caller.
 */
import { ROLE_CODE } from '@conclave/protocol';
import type { JoinOutcome, LoadUser } from './load-user.js';

export interface ActivityCounts {
  flagChanges: number;
  roleSwitches: number;
  rejoins: JoinOutcome[];
}

const TICK_MS = 100;

/** Runs the activity for `seconds`; resolves once every started operation has ended. */
export async function runActivity(users: readonly LoadUser[], seconds: number,
  rates: { flagChangesPerSecond: number; roleSwitchesPerSecond: number; rejoinsPerSecond: number }): Promise<ActivityCounts> {
  const counts: ActivityCounts = { flagChanges: 0, roleSwitches: 0, rejoins: [] };
  const busy = new Set<LoadUser>();
  const inFlight = new Set<Promise<unknown>>();
  const pick = (wanted: (u: LoadUser) => boolean = () => true): LoadUser | undefined => {
    for (let tries = 0; tries < 16; tries++) {
      const user = users[Math.floor(Math.random() * users.length)];
      if (user.joined && !busy.has(user) && wanted(user)) return user;
    }
    return undefined;
  };
  const start = (user: LoadUser, op: (u: LoadUser) => Promise<void>) => {
    busy.add(user);
    const p = op(user).finally(() => {
      busy.delete(user);
      inFlight.delete(p);
    });
    inFlight.add(p);
  };
  // Fractional rates carry over from tick to tick.
  const owed = { flag: 0, role: 0, rejoin: 0 };
  const ends = performance.now() + seconds * 1000;
  while (performance.now() < ends) {
    owed.flag += (rates.flagChangesPerSecond * TICK_MS) / 1000;
    owed.role += (rates.roleSwitchesPerSecond * TICK_MS) / 1000;
    owed.rejoin += (rates.rejoinsPerSecond * TICK_MS) / 1000;
    for (; owed.flag >= 1; owed.flag--) {
      const user = pick((u) => u.role === ROLE_CODE.anchor);
      if (user) start(user, async (u) => { if (await u.toggleFlag()) counts.flagChanges++; });
    }
    for (; owed.role >= 1; owed.role--) {
      const user = pick();
      if (user) start(user, async (u) => { if (await u.switchRole()) counts.roleSwitches++; });
    }
    for (; owed.rejoin >= 1; owed.rejoin--) {
      const user = pick();
      if (user) start(user, async (u) => {
        await u.leave();
        counts.rejoins.push(await u.join());
      });
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS)); // the activity's clock
  }
  await Promise.all(inFlight);
  return counts;
}
