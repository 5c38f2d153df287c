import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router';

interface PageTabsProps {
  /** The tabs, by their `tab` value in the URL, in order. */
  tabs: ReadonlyArray<{ value: string; label: string }>;
  /** The tab shown. */
  value: string;
  /** The tab list's accessible name ("Raw data and buckets"). */
  label: string;
  /** Prefix of the tabs' and panel's element ids. */
  idPrefix: string;
  /** The shown tab's panel. */
  children: ReactNode;
}

/**
 * The tabs of a page whose `?tab=` picks what it lists (raw data and buckets, emails and
 * domains), and the shown tab's panel. A tab starts from its own first page: the other tab's
 * search, filters and paging are dropped from the URL.
 */
export function PageTabs({ tabs, value, label, idPrefix, children }: PageTabsProps) {
  const [, setParams] = useSearchParams();
  return (
    <>
      <Tabs
        value={value}
        onChange={(_event, next: string) => setParams({ tab: next })}
        aria-label={label}
        textColor="inherit"
        sx={{ borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        {tabs.map((entry) => (
          <Tab key={entry.value} value={entry.value} label={entry.label} id={`${idPrefix}-tab-${entry.value}`} aria-controls={`${idPrefix}-panel-${entry.value}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${idPrefix}-panel-${value}`} aria-labelledby={`${idPrefix}-tab-${value}`}>
        {children}
      </Box>
    </>
  );
}
