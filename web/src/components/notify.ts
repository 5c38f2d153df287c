import { createElement, Fragment } from 'react';
import Button from '@mui/material/Button';
import { toast, type ToastContent } from 'react-toastify';

/** A toast that stays open until closed or acted on (see `notify.sticky`). */
export interface StickyToast {
  /** Shows the toast once: another with the same id while it is open is not shown again. */
  id: string;
  message: string;
  /** The label of its button. */
  action: string;
  /** Runs when the toast or its button is clicked; the toast then closes. */
  onClick: () => void;
}

/** A toast's content: the message and one button that closes the toast and runs `onClick`. */
function withAction(message: string, label: string, onClick: () => void): ToastContent {
  return ({ closeToast }) =>
    createElement(Fragment, null, message, ' ',
      createElement(Button, {
        size: 'small',
        variant: 'outlined',
        color: 'inherit',
        sx: { ml: 1, flexShrink: 0, whiteSpace: 'nowrap' },
        onClick: (event: { stopPropagation(): void }) => {
          // A toast that is itself clickable (sticky) would run the action a second time.
          event.stopPropagation();
          closeToast();
          onClick();
        },
      }, label));
}

/**
 * Toast notifications for the whole app. The one `ToastContainer` (auto-close 5 s) is mounted
 * by the application; screens call these helpers instead of importing react-toastify.
 */
export const notify = {
  info(message: string): void {
    toast.info(message);
  },
  success(message: string): void {
    toast.success(message);
  },
  warning(message: string): void {
    toast.warning(message);
  },
  error(message: string): void {
    toast.error(message);
  },
  /** A success toast with one action button (e.g. "Undo"), kept open longer so there is time to click it. */
  successWithAction(message: string, action: { label: string; onClick: () => void }): void {
    toast.success(withAction(message, action.label, action.onClick), { autoClose: 15_000 });
  },
  /**
   * An info toast that does not close by itself (SPEC §4: new suggested organizations). The
   * whole toast is clickable, as SPEC says; the button is there for the keyboard.
   */
  sticky({ id, message, action, onClick }: StickyToast): void {
    toast.info(withAction(message, action, onClick), { toastId: id, autoClose: false, closeOnClick: true, onClick });
  },
};

/**
 * Cuts `text` to at most `max` characters and appends an ellipsis ("…") when it was longer,
 * e.g. organization names in toasts (SPEC §9: 100 characters plus an ellipsis).
 */
export function truncate(text: string, max = 100): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, max).join('').trimEnd()}…`;
}
