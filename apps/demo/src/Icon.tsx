export type IconName = 'mic' | 'mic-off' | 'camera' | 'camera-off' | 'leave' | 'copy' | 'check' | 'volume' | 'volume-off' | 'shuffle' | 'close';

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
