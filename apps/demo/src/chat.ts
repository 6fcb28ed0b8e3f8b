import type TRTC from '@conclave/sdk';
import { getLang, translate } from './i18n';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/** One chat line (a custom message with cmdId CHAT_CMD_ID). */
export interface ChatLine {
  readonly id: number;
  readonly userId: string;
  readonly text: string;
  readonly mine: boolean;
  readonly at: number;
}

/** The custom-message command id the chat uses. */
export const CHAT_CMD_ID = 1;
const MAX_LINES = 200;

/** The room's chat over custom messages: the last MAX_LINES lines; read with useSyncExternalStore. */
export class RoomChat {
  private readonly trtc: TRTCInstance;
  private readonly userId: string;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private lines: readonly ChatLine[] = [];

  constructor(trtc: TRTCInstance, userId: string) {
    this.trtc = trtc;
    this.userId = userId;
    trtc.on('custom-message', (message) => {
      if (message.cmdId !== CHAT_CMD_ID) return;
      this.addLine(message.userId, new TextDecoder().decode(message.data), false);
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): readonly ChatLine[] => this.lines;

  /** Sends a chat line; returns the error message when the SDK refuses (rate limit, not joined…). */
  send(text: string): string | null {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length === 0) return null;
    if (bytes.length > 1000) return translate(getLang(), 'chat.tooLong');
    try {
      this.trtc.sendCustomMessage({ cmdId: CHAT_CMD_ID, data: bytes.buffer });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    this.addLine(this.userId, text, true);
    return null;
  }

  private addLine(userId: string, text: string, mine: boolean): void {
    this.lines = [...this.lines, { id: this.nextId++, userId, text, mine, at: Date.now() }].slice(-MAX_LINES);
    for (const listener of this.listeners) listener();
  }
}
