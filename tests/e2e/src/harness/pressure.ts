import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** Compute Pressure states (docs/behaviour.md §4). */
export type PressureState = 'nominal' | 'fair' | 'serious' | 'critical';

/**
 * Makes a page report `state` as its CPU pressure through DevTools, whatever the machine's real load: the SDK
 * lowers what it receives and decodes under serious or critical pressure (docs/behaviour.md §4), which tests of other
 * subjects must not see on a loaded machine. Returns the session, to change the state later.
 */
export async function pinPressure(context: BrowserContext, page: Page, state: PressureState = 'nominal'): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setPressureSourceOverrideEnabled', { enabled: true, source: 'cpu' });
  await cdp.send('Emulation.setPressureStateOverride', { source: 'cpu', state });
  return cdp;
}
