import type { ReactNode } from 'react';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import './panels.css';

/** A panel at the right of the stage (over it on a phone) with a title and a close button. */
export function SidePanel({ title, testId, open, onClose, children }: {
  title: string; testId: string; open: boolean; onClose: () => void; children: ReactNode;
}) {
  const titleId = `${testId}-title`;
  const t = useT();
  return (
    <section className="side-panel" data-testid={testId} hidden={!open} aria-labelledby={titleId}>
      <header className="side-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={`${t('room.close')} ${title}`} onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      <div className="side-body">{children}</div>
    </section>
  );
}
