import { useCallback, useState } from 'react';
import type { GridDensity } from '@mui/x-data-grid';

/** Row height of a table: compact, or comfortable (the grid's standard). */
export type TableDensity = 'compact' | 'comfortable';

/** What a user chose for one table, remembered in this browser. */
export interface TablePrefs {
  /** Columns shown, in the table's own order; null until the user chooses (the table's defaults). */
  columns: string[] | null;
  density: TableDensity;
}

const DEFAULT_PREFS: TablePrefs = { columns: null, density: 'comfortable' };

/** The localStorage key of a table's choices, e.g. `intelnotes.table.organizations`. */
export const tablePrefsKey = (table: string) => `intelnotes.table.${table}`;

function readPrefs(table: string): TablePrefs {
  try {
    const stored = JSON.parse(window.localStorage.getItem(tablePrefsKey(table)) ?? 'null') as Partial<TablePrefs> | null;
    return {
      columns: Array.isArray(stored?.columns) && stored.columns.every((name) => typeof name === 'string') ? stored.columns : null,
      density: stored?.density === 'compact' ? 'compact' : 'comfortable',
    };
  } catch {
    // Storage refused (private mode) or garbage from an older version: the defaults.
    return DEFAULT_PREFS;
  }
}

/** The grid's own density for ours. */
export const gridDensity = (density: TableDensity): GridDensity => (density === 'compact' ? 'compact' : 'standard');

/**
 * The column choice and density of one table (keyed by `table`, e.g. the resource kind),
 * kept in localStorage so they survive a reload. `available` are the columns the table can
 * show and `defaults` those it shows until the user chooses; `always` columns cannot be hidden.
 */
export function useTablePrefs(table: string, available: string[], defaults: string[], always: string[] = []) {
  const [prefs, setPrefs] = useState<TablePrefs>(() => readPrefs(table));
  const save = useCallback(
    (next: TablePrefs) => {
      setPrefs(next);
      try {
        window.localStorage.setItem(tablePrefsKey(table), JSON.stringify(next));
      } catch {
        // Not remembered, but the choice still applies on this page.
      }
    },
    [table],
  );
  const chosen = (prefs.columns ?? defaults).filter((name) => available.includes(name));
  const shown = available.filter((name) => always.includes(name) || chosen.includes(name));
  return {
    /** Columns shown, in the order of `available`. */
    shown,
    density: prefs.density,
    setShown: (columns: string[]) => save({ ...prefs, columns: available.filter((name) => always.includes(name) || columns.includes(name)) }),
    setDensity: (density: TableDensity) => save({ ...prefs, density }),
    reset: () => save(DEFAULT_PREFS),
  };
}

export type TablePrefsState = ReturnType<typeof useTablePrefs>;
