import { createAction } from '@reduxjs/toolkit';

/**
 * The user asked to reload the current screen (clicked its active tab): the store drops the
 * cached API data so the remounted page fetches afresh. Tenant info is kept.
 */
export const pageReloadRequested = createAction('app/pageReloadRequested');
