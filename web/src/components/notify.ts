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
