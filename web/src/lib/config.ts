/**
 * External links of the web app, kept in one place so a deployment changes them here only.
 */

/** The open-data site linked from the footer. */
export const OPEN_DATA_URL = 'https://opendata.intelnotes.org';

/** Where a visitor learns to set up an instance of their own (the project's README). */
export const SETUP_GUIDE_URL = 'https://github.com/intelnotes/intelnotes#readme';

/** The team's messaging-app channel, the launcher menu's "Contact us" entry. */
export const CONTACT_URL = 'https://t.me/intelnotes';
/** Name of the messaging app behind CONTACT_URL, said next to the link. */
export const CONTACT_APP = 'Telegram';
