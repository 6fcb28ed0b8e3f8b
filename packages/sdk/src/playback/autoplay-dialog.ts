import { autoplayText, type AutoplayText } from './autoplay-text.js';

const ROOT = 'trtc_autoplay';
const CSS = `.${ROOT}_mask{position:fixed;inset:0;display:flex;justify-content:center;align-items:center;background:rgba(0,0,0,.5);z-index:1500}
.${ROOT}_wrapper{padding:14px;background:#fff;color:#222;border-radius:3px;box-shadow:0 3px 15px #434343;border:1px solid #d1cfcf;max-width:500px;font:14px/1.5 system-ui,sans-serif}
.${ROOT}_wrapper a{color:#2473e8}.${ROOT}_header{overflow:hidden;text-overflow:ellipsis;font-size:16px;font-weight:600;margin:0}
.${ROOT}_content{margin:8px 0}.${ROOT}_detail{font-size:12px;color:#666;margin:0 0 8px}
.${ROOT}_actions{display:flex;align-items:center;gap:8px}.${ROOT}_actions button{font:inherit;cursor:pointer;border-radius:3px}
.${ROOT}_collapse{margin-right:auto;background:none;border:0;color:#2473e8;padding:4px 0}
.${ROOT}_question{background:none;border:0;padding:2px;line-height:0;color:#555}
.${ROOT}_confirm{color:#fff;background:#2473e8;padding:4px 12px;border:1px solid #2473e8;font-weight:700}
.${ROOT}_wrapper button:focus-visible{outline:2px solid #2473e8;outline-offset:2px}
@media (max-width:750px){.${ROOT}_wrapper{width:80vw}}`;
const HELP_ICON = '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="12" cy="17.5" r="1.2" fill="currentColor"/></svg>';

let styled = false;
let open: AutoplayDialog | undefined;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = `${ROOT}_${className}`;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The autoplay-blocked dialog (docs/behaviour.md §2): the page host as title, the message, a Detail toggle with
 * the autoplay policy and a tutorial link, a help icon opening the tutorial, a Resume button.
 * Resume or the backdrop close it and resume playback (onClose(true)); Escape only closes it
 * (onClose(false)). One dialog at a time, shared by every client of the page.
 */
export class AutoplayDialog {
  private readonly _mask: HTMLDivElement;
  private readonly _onClose = new Set<(resumed: boolean) => void>();
  private readonly _previousFocus: Element | null;
  private readonly _onKey: (event: KeyboardEvent) => void;

  /** Shows the dialog unless one is open; returns the open one. */
  static show(onClose: (resumed: boolean) => void): AutoplayDialog {
    open ??= new AutoplayDialog(autoplayText(document.documentElement.lang, navigator.language));
    open._onClose.add(onClose);
    return open;
  }

  /** True while a dialog is on the page. */
  static get isOpen(): boolean {
    return open !== undefined;
  }

  private constructor(text: AutoplayText) {
    if (!styled) {
      const style = document.createElement('style');
      style.textContent = CSS;
      document.head.appendChild(style);
      styled = true;
    }
    const mask = el('div', 'mask');
    const box = el('div', 'wrapper');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', `${ROOT}_title`);
    box.setAttribute('aria-describedby', `${ROOT}_message`);
    const title = el('h2', 'header', location.host || document.title);
    title.id = `${ROOT}_title`;
    const message = el('p', 'content', text.message);
    message.id = `${ROOT}_message`;
    const detail = el('p', 'detail', `${text.policy} `);
    detail.id = `${ROOT}_detail`;
    detail.hidden = true;
    const link = el('a', 'link', text.other);
    link.href = text.tutorial;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    detail.appendChild(link);
    const toggle = el('button', 'collapse', `${text.detail} >`);
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', detail.id);
    toggle.onclick = () => {
      detail.hidden = !detail.hidden;
      toggle.setAttribute('aria-expanded', String(!detail.hidden));
      toggle.textContent = `${text.detail} ${detail.hidden ? '>' : 'v'}`;
    };
    const help = el('button', 'question');
    help.type = 'button';
    help.title = text.help;
    help.setAttribute('aria-label', text.help);
    help.innerHTML = HELP_ICON;
    help.onclick = () => window.open(text.tutorial, '_blank', 'noopener');
    const resume = el('button', 'confirm', text.resume);
    resume.type = 'button';
    resume.onclick = () => this.close(true);
    const actions = el('div', 'actions');
    actions.append(toggle, help, resume);
    box.append(title, message, detail, actions);
    mask.appendChild(box);
    mask.addEventListener('click', (event) => {
      if (event.target === mask) this.close(true);
    });
    this._onKey = (event) => {
      if (event.key === 'Escape') {
        // Escape is no user activation for the autoplay policy: close, and let the next click resume.
        event.preventDefault();
        this.close(false);
      } else if (event.key === 'Tab') {
        // Keep the focus inside the dialog.
        const focusable = [...box.querySelectorAll<HTMLElement>('button, a[href]')].filter((node) => node.offsetParent !== null);
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    this._mask = mask;
    this._previousFocus = document.activeElement;
    document.addEventListener('keydown', this._onKey, true);
    document.body.appendChild(mask);
    resume.focus();
  }

  /** The dialog's root element (for tests). */
  get element(): HTMLElement {
    return this._mask;
  }

  /** Removes the dialog and tells every client whether to resume (from the user's click, so playback may start). */
  close(resume: boolean): void {
    if (open !== this) return;
    open = undefined;
    document.removeEventListener('keydown', this._onKey, true);
    this._mask.remove();
    if (this._previousFocus instanceof HTMLElement) this._previousFocus.focus();
    for (const onClose of this._onClose) onClose(resume);
  }
}
