/**
 * Waits (at most ~1 s) until the clock's second has moved on, so that the official client signs the next
 * request anew: within one second it signs one body alike whatever the action, and the server takes a signed
 * write once (docs/behaviour.md §10.3).
 */
export async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  const end = Date.now() + 1_500;
  while (Math.floor(Date.now() / 1000) === second) {
    if (Date.now() > end) throw new Error('the clock did not reach the next second');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
