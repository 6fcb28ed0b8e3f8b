import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon, type IconName } from '../Icon';

/**
 * A small button that opens a panel above it (the device menus of the control bar). Escape or a click
 * outside closes it and gives the focus back to the button; the first control inside gets the focus.
 */
export function Popover({ label, testId, children, trigger }: {
  label: string; testId: string; children: ReactNode;
  /** The button's look: a small arrow beside another button (default), or a bar button with this icon. */
  trigger?: { icon: IconName; active: boolean; disabled?: boolean };
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const panel = root.current?.querySelector<HTMLElement>('[role="dialog"]');
    panel?.querySelector<HTMLElement>('select, button, input')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <div className="popover-root" ref={root}>
      <button ref={button} type="button" className={trigger ? `bar-button${trigger.active ? ' is-active' : ''}` : 'bar-chevron'}
        data-testid={testId} aria-label={label} title={label} aria-expanded={open} aria-controls={id}
        disabled={trigger?.disabled} onClick={() => setOpen(!open)}>
        <Icon name={trigger?.icon ?? 'chevron'} />
      </button>
      <div className="popover" role="dialog" id={id} aria-label={label} hidden={!open} data-testid={`${testId}-panel`}>
        {children}
      </div>
    </div>
  );
}
