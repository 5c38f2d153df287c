import { lazy, Suspense } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

// The Operator brings the data grid: loaded when its tab is opened, not with the search page.
const OperatorTab = lazy(async () => ({ default: (await import('./OperatorTab')).OperatorTab }));

/** /search?tab=1: the Operator, its code loaded on first use. */
export function LazyOperatorTab() {
  return (
    <Suspense fallback={<LinearProgress aria-label="Loading the Operator" />}>
      <OperatorTab />
    </Suspense>
  );
}
