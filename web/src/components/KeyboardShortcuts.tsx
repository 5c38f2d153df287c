import { Fragment, useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import KeyboardIcon from '@mui/icons-material/KeyboardOutlined';

/** One shortcut as the hint shows it: the key and what it does. */
export interface Shortcut {
  key: string;
  /** What the hint shows for the key, when not the key itself ("Enter"). */
  label?: string;
  does: string;
}

/** Text inputs (and anything editable): typing there is never a shortcut. Checkboxes and buttons are not typing. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  // MUI's select and autocomplete listboxes take keys for themselves.
  return target.closest('[role="listbox"], [role="combobox"]') !== null;
}

/**
 * Single-key shortcuts of a page (the review screens: j/k, a, r…), read on the whole document.
 * Ignored while typing in an input, with a modifier held (the browser's own shortcuts), and
 * while a dialog or menu is open over the page.
 */
export function useShortcutKeys(handlers: Record<string, (event: KeyboardEvent) => boolean | void>, enabled = true): void {
  // The latest handlers, without re-adding the listener on every render.
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      if (isTypingTarget(event.target)) return;
      if (document.querySelector('.MuiDialog-root, .MuiPopover-root .MuiMenu-paper')) return;
      const handler = current.current[event.key];
      if (!handler) return;
      // A handler answers false to leave the key to the browser (e.g. Enter on a focused button).
      if (handler(event) !== false) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

/** The visible list of a page's shortcuts ("j / k move · a accepts …"). */
export function KeyboardHint({ shortcuts, label = 'Keyboard shortcuts' }: { shortcuts: Shortcut[]; label?: string }) {
  return (
    <Box
      role="note"
      aria-label={label}
      data-testid="keyboard-hint"
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, color: 'text.secondary' }}
    >
      <KeyboardIcon fontSize="small" aria-hidden="true" />
      {shortcuts.map((shortcut, index) => (
        <Fragment key={shortcut.key}>
          {index > 0 && (
            <Typography component="span" variant="body2" aria-hidden="true">
              ·
            </Typography>
          )}
          <Typography component="span" variant="body2">
            <Box
              component="kbd"
              sx={{
                px: 0.75,
                py: 0.125,
                mr: 0.5,
                border: 1,
                borderColor: 'divider',
                borderRadius: 0.5,
                bgcolor: 'action.hover',
                fontFamily: 'monospace',
                fontSize: '0.85em',
              }}
            >
              {shortcut.label ?? shortcut.key}
            </Box>
            {shortcut.does}
          </Typography>
        </Fragment>
      ))}
    </Box>
  );
}
