/** The debug dialog's DOM: a fixed panel with sections of key/value rows, a log list and two buttons. */

const STYLE = `
#trtc-debug-dialog{position:fixed;right:8px;bottom:8px;width:420px;max-height:70vh;overflow:auto;z-index:2147483647;
background:rgba(20,24,32,.94);color:#e8ecf2;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;border-radius:8px;
box-shadow:0 4px 24px rgba(0,0,0,.4);padding:8px 10px}
#trtc-debug-dialog h3{margin:6px 0 2px;font-size:12px;color:#8fc7ff}
#trtc-debug-dialog table{border-collapse:collapse;width:100%}
#trtc-debug-dialog td{padding:1px 4px;vertical-align:top}
#trtc-debug-dialog td:first-child{color:#9aa4b2;white-space:nowrap}
#trtc-debug-dialog .log{max-height:160px;overflow:auto;white-space:pre-wrap;word-break:break-all;background:#0c0f14;padding:4px}
#trtc-debug-dialog button{margin:6px 6px 0 0;font:inherit;cursor:pointer}`;

export type Rows = [string, string][];

/** The panel; `render` replaces a section's rows. */
export class DebugView {
  readonly root: HTMLElement;
  private readonly _sections = new Map<string, HTMLTableSectionElement>();
  private readonly _log: HTMLElement;

  constructor(titles: string[], actions: { copy(): void; download(): void; close(): void }) {
    const root = document.createElement('div');
    root.id = 'trtc-debug-dialog';
    const style = document.createElement('style');
    style.textContent = STYLE;
    root.append(style);
    const heading = document.createElement('strong');
    heading.textContent = 'TRTC debug (Conclave)';
    root.append(heading);
    for (const title of titles) {
      const h = document.createElement('h3');
      h.textContent = title;
      const table = document.createElement('table');
      const body = table.createTBody();
      body.dataset.section = title;
      root.append(h, table);
      this._sections.set(title, body);
    }
    const h = document.createElement('h3');
    h.textContent = 'Log';
    this._log = document.createElement('div');
    this._log.className = 'log';
    root.append(h, this._log);
    for (const [label, action] of [['Copy log', actions.copy], ['Download log', actions.download], ['Close', actions.close]] as const) {
      const button = document.createElement('button');
      button.textContent = label;
      button.addEventListener('click', action);
      root.append(button);
    }
    this.root = root;
    document.body.append(root);
  }

  render(section: string, rows: Rows): void {
    const body = this._sections.get(section);
    if (!body) return;
    body.replaceChildren(...rows.map(([key, value]) => {
      const row = document.createElement('tr');
      const k = document.createElement('td');
      k.textContent = key;
      const v = document.createElement('td');
      v.textContent = value;
      row.append(k, v);
      return row;
    }));
  }

  /** Shows the most recent lines (newest last). */
  showLog(lines: string[]): void {
    this._log.textContent = lines.slice(-30).join('\n');
    this._log.scrollTop = this._log.scrollHeight;
  }

  remove(): void {
    this.root.remove();
  }
}
