export type IconName = 'mic' | 'mic-off' | 'camera' | 'camera-off' | 'leave' | 'copy' | 'check' | 'volume' | 'volume-off' | 'shuffle' | 'close' | 'pin' | 'screen' | 'chat' | 'people' | 'settings' | 'chevron' | 'hand' | 'phone-off' | 'sparkles';

const PATHS: Record<IconName, string[]> = {
  mic: ['M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z', 'M19 11a7 7 0 0 1-14 0', 'M12 18v3'],
  'mic-off': ['M15 9.3V6a3 3 0 0 0-5.7-1.3', 'M9 9v3a3 3 0 0 0 5.1 2.1', 'M19 11a7 7 0 0 1-1.2 3.9', 'M5 11a7 7 0 0 0 10.7 5.9', 'M12 18v3', 'M3 3l18 18'],
  camera: ['M3 7h12v10H3z', 'M15 10l6-3v10l-6-3'],
  'camera-off': ['M9 7h6v6', 'M15 10l6-3v10l-5-2.5', 'M15 17H3V7h2', 'M3 3l18 18'],
  leave: ['M10 17l-5-5 5-5', 'M5 12h11', 'M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4'],
  copy: ['M9 9h11v11H9z', 'M5 15H4V4h11v1'],
  check: ['M5 12l5 5 9-10'],
  volume: ['M4 9h4l5-4v14l-5-4H4z', 'M16 9a4 4 0 0 1 0 6', 'M18.5 6.5a8 8 0 0 1 0 11'],
  'volume-off': ['M4 9h4l5-4v14l-5-4H4z', 'M16 9l6 6', 'M22 9l-6 6'],
  shuffle: ['M4 7h3l10 10h3', 'M4 17h3l3-3', 'M14 10l3-3h3', 'M18 5l2 2-2 2', 'M18 15l2 2-2 2'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  pin: ['M9 4h6l-1 6 3 3H7l3-3z', 'M12 13v7'],
  screen: ['M3 5h18v11H3z', 'M8 20h8', 'M12 16v4', 'M12 13V8', 'M9.5 10.5L12 8l2.5 2.5'],
  chat: ['M4 5h16v11H9l-5 4z'],
  people: ['M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M3 20a6 6 0 0 1 12 0', 'M16 11a3 3 0 1 0 0-6', 'M18 20a6 6 0 0 0-2.5-4.9'],
  settings: ['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M12 2v3', 'M12 19v3', 'M2 12h3', 'M19 12h3', 'M4.9 4.9l2.1 2.1', 'M17 17l2.1 2.1', 'M4.9 19.1L7 17', 'M17 7l2.1-2.1'],
  chevron: ['M6 15l6-6 6 6'],
  sparkles: ['M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z', 'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z'],
  hand: ['M8 13V5a1.5 1.5 0 0 1 3 0v6', 'M11 11V4a1.5 1.5 0 0 1 3 0v7', 'M14 11V5.5a1.5 1.5 0 0 1 3 0V14a6 6 0 0 1-6 6h-1a6 6 0 0 1-5-2.7L3 14a1.5 1.5 0 0 1 2.5-1.6L8 15'],
  'phone-off': ['M3 15c5-5 13-5 18 0l-2.5 2.5-3.5-1.5v-2.5a9 9 0 0 0-6 0V16l-3.5 1.5z'],
};

/** A decorative stroke icon; the control that holds it carries the accessible name. */
export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
