/**
 * The device check's dialog: a fixed overlay with one step at a time (a title, the step's content, its
 * buttons). Buttons carry `data-dd="<choice>"` and the root `data-step="<step>"`, for tests and styling.
 */

const STYLE = `
#trtc-device-detector{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;
background:rgba(0,0,0,.45);font:14px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif}
#trtc-device-detector .dd-panel{background:#fff;color:#1d2129;border-radius:10px;width:420px;max-width:92vw;padding:18px 20px;
box-shadow:0 8px 32px rgba(0,0,0,.35)}
#trtc-device-detector .dd-head{display:flex;justify-content:space-between;align-items:center;margin-bottom:4px}
#trtc-device-detector .dd-steps{display:flex;gap:6px;margin:6px 0 12px;font-size:12px;color:#86909c}
#trtc-device-detector .dd-steps span.on{color:#006eff;font-weight:600}
#trtc-device-detector h2{font-size:16px;margin:0}
#trtc-device-detector video{width:100%;aspect-ratio:4/3;background:#000;border-radius:6px;object-fit:cover}
#trtc-device-detector .dd-meter{height:12px;background:#e5e6eb;border-radius:6px;overflow:hidden;margin:12px 0}
#trtc-device-detector .dd-meter div{height:100%;width:0;background:#00b42a;transition:width .08s}
#trtc-device-detector .dd-buttons{display:flex;gap:8px;justify-content:flex-end;margin-top:14px}
#trtc-device-detector button{font:inherit;padding:5px 14px;border-radius:6px;border:1px solid #c9cdd4;background:#fff;cursor:pointer}
#trtc-device-detector button.dd-primary{background:#006eff;border-color:#006eff;color:#fff}
#trtc-device-detector table{width:100%;border-collapse:collapse}
#trtc-device-detector td{padding:4px 2px;border-bottom:1px solid #f2f3f5}
#trtc-device-detector .dd-ok{color:#00b42a}#trtc-device-detector .dd-bad{color:#f53f3f}`;

/** A button of a step: its label, the choice it answers, whether it is the main one. */
export interface Choice {
  label: string;
  key: string;
  primary?: boolean;
}

export class DetectorDialog {
  readonly root: HTMLElement;
  private readonly _title: HTMLElement;
  private readonly _steps: HTMLElement;
  private readonly _body: HTMLElement;
  private readonly _buttons: HTMLElement;
  private _answer: ((key: string) => void) | undefined;

  /** @param stepNames the steps shown in the progress line; @param onClose the × button */
  constructor(title: string, closeLabel: string, stepNames: string[], onClose: () => void) {
    const root = document.createElement('div');
    root.id = 'trtc-device-detector';
    const style = document.createElement('style');
    style.textContent = STYLE;
    const panel = document.createElement('div');
    panel.className = 'dd-panel';
    const head = document.createElement('div');
    head.className = 'dd-head';
    this._title = document.createElement('h2');
    this._title.textContent = title;
    const close = document.createElement('button');
    close.textContent = '×';
    close.title = closeLabel;
    close.dataset.dd = 'close';
    close.addEventListener('click', onClose);
    head.append(this._title, close);
    this._steps = document.createElement('div');
    this._steps.className = 'dd-steps';
    for (const name of stepNames) {
      const span = document.createElement('span');
      span.textContent = name;
      this._steps.append(span);
    }
    this._body = document.createElement('div');
    this._buttons = document.createElement('div');
    this._buttons.className = 'dd-buttons';
    panel.append(head, this._steps, this._body, this._buttons);
    root.append(style, panel);
    document.body.append(root);
    this.root = root;
  }

  /** Shows a step and resolves with the key of the button pressed. */
  ask(step: string, index: number, content: Node[], choices: Choice[]): Promise<string> {
    this.root.dataset.step = step;
    [...this._steps.children].forEach((span, i) => span.classList.toggle('on', i === index));
    this._body.replaceChildren(...content);
    this._buttons.replaceChildren(...choices.map((choice) => {
      const button = document.createElement('button');
      button.textContent = choice.label;
      button.dataset.dd = choice.key;
      if (choice.primary) button.className = 'dd-primary';
      button.addEventListener('click', () => this._answer?.(choice.key));
      return button;
    }));
    return new Promise((resolve) => {
      this._answer = (key) => {
        this._answer = undefined;
        resolve(key);
      };
    });
  }

  /** Ends the step in progress as if `key` were pressed (the × button, stop()). */
  cancel(key: string): void {
    this._answer?.(key);
  }

  /** Shows content with no buttons (the network test running). */
  show(step: string, index: number, content: Node[]): void {
    this.root.dataset.step = step;
    [...this._steps.children].forEach((span, i) => span.classList.toggle('on', i === index));
    this._body.replaceChildren(...content);
    this._buttons.replaceChildren();
  }

  close(): void {
    this.root.remove();
  }
}

/** A paragraph of text. */
export function para(text: string, className?: string): HTMLElement {
  const p = document.createElement('p');
  p.textContent = text;
  if (className) p.className = className;
  return p;
}
