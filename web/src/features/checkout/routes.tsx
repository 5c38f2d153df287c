import type { RouteObject } from 'react-router';

/** /checkout, where a payment provider sends the reader back (SPEC §2 public routes). */
export const checkoutPublicRoutes: RouteObject[] = [
  { path: 'checkout', lazy: async () => ({ Component: (await import('./CheckoutPage')).CheckoutPage }) },
];
