import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { log } from '../log/logger.js';
import { importOnce } from '../loader/import-once.js';
import type { AutoplayDialog } from './autoplay-dialog.js';

/**
 * The autoplay dialog (docs/behaviour.md §2) is UI most sessions never show: its module (markup, styles, both languages)
 * stays out of the core bundle and is loaded from the server's /sdk/assets on first need, like the built-in
 * plugins (3 retries, 3 s time-out). If it cannot load, the blocked players resume on the next click instead.
 */
let showing = 0;

export const autoplayDialog = {
  /** True while a dialog is on the page or about to be. */
  get isOpen(): boolean {
    return showing > 0;
  },

  /** Shows the dialog (one per page); onClose(true) on Resume, onClose(false) when closed without it or not shown. */
  show(onClose: (resumed: boolean) => void): void {
    showing += 1;
    importOnce<{ AutoplayDialog: typeof AutoplayDialog }>(`${DEFAULT_SERVER_ORIGIN}/sdk/assets/autoplay-dialog.js`).then(({ AutoplayDialog: Dialog }) => Dialog.show((resumed) => {
      showing = Math.max(0, showing - 1);
      onClose(resumed);
    }), (error: unknown) => {
      showing = Math.max(0, showing - 1);
      log.warn('autoplay dialog failed to load:', error);
      onClose(false);
    });
  },
};
