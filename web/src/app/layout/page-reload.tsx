import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../hooks';
import { pageReloadRequested } from '../reload';

interface PageReload {
  /** Changes on every reload; the layout keys the page with it so the page remounts. */
  reloadKey: number;
  /** Navigates to `to`, drops cached API data and remounts the page, which refetches. */
  reload(to: string): void;
}

const PageReloadContext = createContext<PageReload | null>(null);

/** Reloading a screen without reloading the browser tab (SPEC §2: clicking the active tab). */
export function PageReloadProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [reloadKey, setReloadKey] = useState(0);

  const reload = useCallback(
    (to: string) => {
      dispatch(pageReloadRequested());
      void navigate(to);
      setReloadKey((key) => key + 1);
    },
    [dispatch, navigate],
  );

  const value = useMemo(() => ({ reloadKey, reload }), [reloadKey, reload]);
  return <PageReloadContext value={value}>{children}</PageReloadContext>;
}

export function usePageReload(): PageReload {
  const context = useContext(PageReloadContext);
  if (!context) throw new Error('usePageReload needs a PageReloadProvider');
  return context;
}
