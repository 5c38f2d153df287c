import type { RouteObject } from 'react-router';

const pages = () => import('./EmailPages');
const publicPages = () => import('./SubscribePages');

/** SPEC §2 public routes: the distribution list's sign-up widget and the links of its messages. */
export const emailsPublicRoutes: RouteObject[] = [
  { path: 'emails/add', lazy: async () => ({ Component: (await publicPages()).SubscribePage }) },
  { path: 'emails/confirm', lazy: async () => ({ Component: (await publicPages()).ConfirmSubscriptionPage }) },
  { path: 'emails/unsubscribe', lazy: async () => ({ Component: (await publicPages()).UnsubscribePage }) },
];

/** The email list is research material (SPEC §2 research routes); the navigation shows its tab to admins. */
export const emailsResearchRoutes: RouteObject[] = [
  { path: 'emails', lazy: async () => ({ Component: (await import('./EmailsPage')).EmailsPage }) },
  { path: 'emails/domains/:id', lazy: async () => ({ Component: (await pages()).DomainRecordRedirect }) },
  { path: 'emails/domains/:id/edit', lazy: async () => ({ Component: (await pages()).DomainEditPage }) },
  { path: 'emails/:id', lazy: async () => ({ Component: (await pages()).EmailRecordRedirect }) },
  { path: 'emails/:id/edit', lazy: async () => ({ Component: (await pages()).EmailEditPage }) },
];
