// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AutoplayDialog } from './autoplay-dialog.js';
import { AutoplayGuard } from './autoplay.js';

// The guard loads the dialog's module from the server (/sdk/assets/autoplay-dialog.js, covered by the e2e
// autoplay test); here it gets the module itself, already loaded.
vi.mock('./autoplay-dialog-loader.js', async () => {
  const { AutoplayDialog: Dialog } = await import('./autoplay-dialog.js');
  return { autoplayDialog: { get isOpen() { return Dialog.isOpen; }, show: (onClose: (resumed: boolean) => void) => { Dialog.show(onClose); } } };
});

const dialogEl = () => document.querySelector('[role="dialog"]') as HTMLElement | null;
const button = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith(text)) as HTMLButtonElement;

afterEach(() => {
  if (AutoplayDialog.isOpen) AutoplayDialog.show(() => undefined).close(false);
  document.documentElement.lang = '';
});

describe('the autoplay dialog (docs/behaviour.md §2)', () => {
  it('shows the host, the message, a Detail toggle, a help icon and Resume; labelled for screen readers; focus on Resume', () => {
    AutoplayDialog.show(() => undefined);
    const box = dialogEl()!;
    expect(box.getAttribute('aria-modal')).toBe('true');
    const title = document.getElementById(box.getAttribute('aria-labelledby')!)!;
    expect(title.textContent).toBe(location.host || document.title);
    expect(box.textContent).toContain('Media playback failed. Click the "Resume" to resume playback.');
    expect(document.activeElement).toBe(button('Resume'));
    expect(box.querySelector('button[aria-label]')).not.toBeNull();
  });

  it('Detail expands the explanation with a tutorial link', () => {
    AutoplayDialog.show(() => undefined);
    const detail = button('Detail');
    const panel = document.getElementById(detail.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(true);
    detail.click();
    expect(panel.hidden).toBe(false);
    expect(detail.getAttribute('aria-expanded')).toBe('true');
    expect(panel.querySelector('a[target="_blank"]')?.getAttribute('href')).toMatch(/^https:/);
  });

  it('the help icon opens the tutorial in a new tab', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    AutoplayDialog.show(() => undefined);
    (dialogEl()!.querySelector('button[aria-label]') as HTMLButtonElement).click();
    expect(open).toHaveBeenCalledWith(expect.stringMatching(/^https:/), '_blank', 'noopener');
  });

  it('Resume or the backdrop close it and resume; Escape closes without resuming; one dialog for all clients', () => {
    const a: boolean[] = [];
    const b: boolean[] = [];
    AutoplayDialog.show((r) => a.push(r));
    AutoplayDialog.show((r) => b.push(r));
    expect(document.querySelectorAll('[role="dialog"]').length).toBe(1);
    button('Resume').click();
    expect(dialogEl()).toBeNull();
    expect([a, b]).toEqual([[true], [true]]);

    const c: boolean[] = [];
    const dialog = AutoplayDialog.show((r) => c.push(r));
    dialog.element.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(c).toEqual([true]);

    const d: boolean[] = [];
    AutoplayDialog.show((r) => d.push(r));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(d).toEqual([false]);
    expect(AutoplayDialog.isOpen).toBe(false);
  });

  it('is worded in Chinese when the page language is Chinese', () => {
    document.documentElement.lang = 'zh-CN';
    AutoplayDialog.show(() => undefined);
    expect(dialogEl()!.textContent).toContain('音视频播放被浏览器拦截，请点击“恢复播放”。');
    expect(button('恢复播放')).toBeDefined();
  });
});

describe('autoplay refusals (docs/behaviour.md §2, §8 PLAY_NOT_ALLOWED)', () => {
  it('with the dialog on: autoplay-failed, the dialog, and Resume resumes every refused player', () => {
    const events: { userId: string; mediaType: string }[] = [];
    const guard = new AutoplayGuard(() => true, (e) => events.push(e));
    const resumed: string[] = [];
    guard.blocked({ userId: 'a', mediaType: 'audio', resume: async () => { resumed.push('a'); } });
    guard.blocked({ userId: 'b', mediaType: 'video', resume: async () => { resumed.push('b'); } });
    expect(events.map((e) => [e.userId, e.mediaType])).toEqual([['a', 'audio'], ['b', 'video']]);
    expect(AutoplayDialog.isOpen).toBe(true);
    button('Resume').click();
    expect(resumed).toEqual(['a', 'b']);
  });

  it('with the dialog off: no dialog, and the next click anywhere resumes (once)', () => {
    const events: { resume: () => Promise<void> }[] = [];
    const guard = new AutoplayGuard(() => false, (e) => events.push(e));
    let resumed = 0;
    guard.blocked({ userId: 'a', mediaType: 'audio', resume: async () => { resumed++; } });
    expect(AutoplayDialog.isOpen).toBe(false);
    document.body.click();
    document.body.click();
    expect(resumed).toBe(1);
    // The event's resume() resumes too.
    void events[0]!.resume();
    expect(resumed).toBe(2);
  });
});
