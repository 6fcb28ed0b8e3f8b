import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { RoomInsights } from './insights';

/** The room's chat: custom messages (cmdId 1) sent to everyone in the room. */
export function ChatPanel({ insights, canSend }: { insights: RoomInsights; canSend: boolean }) {
  const { chat } = useSyncExternalStore(insights.subscribe, insights.getSnapshot);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [chat.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    const refused = insights.sendChat(trimmed);
    setError(refused);
    if (!refused) setText('');
  };

  return (
    <section className="chat" aria-labelledby="chat-title" data-testid="chat-panel">
      <h2 id="chat-title">Chat</h2>
      <ol className="chat-lines" ref={list} aria-live="polite" data-testid="chat-lines">
        {chat.map((line) => (
          <li key={line.id} className={line.mine ? 'chat-line mine' : 'chat-line'} data-testid="chat-line" data-user-id={line.userId}>
            <strong>{line.mine ? 'You' : line.userId}</strong> <span>{line.text}</span>
          </li>
        ))}
        {chat.length === 0 && <li className="chat-empty">No messages yet.</li>}
      </ol>
      <form className="chat-form" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="chat-input">Message</label>
        <input
          id="chat-input"
          data-testid="chat-input"
          value={text}
          maxLength={500}
          disabled={!canSend}
          placeholder={canSend ? 'Say something…' : 'The audience cannot send messages'}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button" data-testid="chat-send" disabled={!canSend || text.trim() === ''}>
          Send
        </button>
      </form>
      {error && <p className="chat-error" role="alert" data-testid="chat-error">{error}</p>}
    </section>
  );
}
