import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useT } from '../i18n';
import type { RoomChat } from '../chat';

/** The room's chat: custom messages (cmdId 1) sent to everyone in the room. */
export function ChatPanel({ chat, canSend, active }: { chat: RoomChat; canSend: boolean; active: boolean }) {
  const lines = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const t = useT();

  // Opening the chat puts the cursor in the message box.
  useEffect(() => {
    if (active) input.current?.focus();
  }, [active]);

  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lines.length, active]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    const refused = chat.send(trimmed);
    setError(refused);
    if (!refused) setText('');
  };

  return (
    <div className="chat" data-testid="chat-panel">
      <ol className="chat-lines" ref={list} aria-live="polite" data-testid="chat-lines">
        {lines.map((line) => (
          <li key={line.id} className={line.mine ? 'chat-line mine' : 'chat-line'} data-testid="chat-line" data-user-id={line.userId}>
            <strong>{line.mine ? t('chat.you') : line.userId}</strong> <span>{line.text}</span>
          </li>
        ))}
        {lines.length === 0 && <li className="chat-empty">{t('chat.empty')}</li>}
      </ol>
      <form className="chat-form" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="chat-input">{t('chat.message')}</label>
        <input
          id="chat-input"
          ref={input}
          data-testid="chat-input"
          value={text}
          maxLength={500}
          disabled={!canSend}
          placeholder={canSend ? t('chat.placeholder') : t('chat.audience')}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button" data-testid="chat-send" disabled={!canSend || text.trim() === ''}>
          {t('chat.send')}
        </button>
      </form>
      {error && <p className="chat-error" role="alert" data-testid="chat-error">{error}</p>}
    </div>
  );
}
