import { useEffect, useRef, useState } from 'react';
import { Icon } from './Icon';
import { useT } from './i18n';

type CopyState = 'idle' | 'copied' | 'manual';

/** The room's share link with a copy button (falls back to selecting the text). */
export function InviteLink({ link }: { link: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const inputRef = useRef<HTMLInputElement>(null);
  const t = useT();

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setState('copied');
    } catch {
      // Clipboard refused (no permission, not focused): the link is selected for the user to copy, and said so.
      inputRef.current?.select();
      setState('manual');
    }
  };

  return (
    <div className="invite">
      <label className="invite-label" htmlFor="invite-link">
        {t('invite.label')}
      </label>
      <div className="invite-row">
        <input
          id="invite-link"
          ref={inputRef}
          className="invite-input"
          data-testid="invite-link"
          value={link}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button-secondary" data-testid="copy-invite" onClick={() => void copy()}>
          <Icon name={state === 'copied' ? 'check' : 'copy'} />
          {state === 'copied' ? t('invite.copied') : t('invite.copy')}
        </button>
      </div>
      <p className="invite-status" role="status">
        {state === 'copied' && t('invite.copiedNote')}
        {state === 'manual' && t('invite.manual')}
      </p>
    </div>
  );
}
