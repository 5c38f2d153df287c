import type { RefObject } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ConfirmDialog';

interface UnsavedChangesGuardProps {
  /** Whether the form holds changes that are not saved. */
  dirty: boolean;
  /** Set once the form saved, so the navigation that follows a save is not held up. */
  saved?: RefObject<boolean>;
  /** What the changes are to, for the question ("this tenant", "the settings"). */
  what: string;
}

/** Asks before leaving a page whose form has unsaved changes (another page of the app, not a reload). */
export function UnsavedChangesGuard({ dirty, saved, what }: UnsavedChangesGuardProps) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !saved?.current && currentLocation.pathname !== nextLocation.pathname,
  );
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      Your changes to {what} have not been saved.
    </ConfirmDialog>
  );
}
