import { useEffect } from 'react';

/**
 * Cmd+F (macOS) / Ctrl+F opens the quick search instead of the browser's find bar
 * (SPEC §2 "Search dialog").
 */
export function useSearchShortcut(openSearch: () => void): void {
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        openSearch();
      }
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [openSearch]);
}
