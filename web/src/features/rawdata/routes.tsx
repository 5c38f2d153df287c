import type { RouteObject } from 'react-router';

const pages = () => import('./RawDataPages');

/** Raw data is research material (SPEC §2 research routes); the navigation shows its tab to admins. */
export const rawDataResearchRoutes: RouteObject[] = [
  { path: 'rawdata', lazy: async () => ({ Component: (await import('./RawDataListPage')).RawDataListPage }) },
  { path: 'rawdata/create', lazy: async () => ({ Component: (await pages()).RawDataCreatePage }) },
  { path: 'rawdata/quick-create', lazy: async () => ({ Component: (await import('./QuickCollectPage')).QuickCollectPage }) },
  { path: 'shortcuts', lazy: async () => ({ Component: (await import('./QuickCollectPage')).QuickCollectPage }) },
  { path: 'rawdata/buckets/create', lazy: async () => ({ Component: (await pages()).BucketCreatePage }) },
  { path: 'rawdata/buckets/:id', lazy: async () => ({ Component: (await pages()).BucketRecordRedirect }) },
  { path: 'rawdata/buckets/:id/edit', lazy: async () => ({ Component: (await pages()).BucketEditPage }) },
  { path: 'rawdata/:id', lazy: async () => ({ Component: (await pages()).RawDataRecordRedirect }) },
  { path: 'rawdata/:id/edit', lazy: async () => ({ Component: (await pages()).RawDataEditPage }) },
];
