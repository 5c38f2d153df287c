import { createElement, Fragment } from 'react';
import Button from '@mui/material/Button';
import { toast } from 'react-toastify';

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
    toast.success(
      ({ closeToast }) =>
        createElement(Fragment, null, message, ' ',
          createElement(Button, {
            size: 'small',
            variant: 'outlined',
            color: 'inherit',
            sx: { ml: 1 },
            onClick: () => {
              closeToast();
              action.onClick();
            },
          }, action.label)),
      { autoClose: 15_000 },
    );
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
