import type { ResourceView } from '../../components/resource-view';

/** People on the shared list, form and detail page. */
export const peopleView: ResourceView = {
  kind: 'people',
  basePath: '/people',
  title: 'People',
  columns: ['display_name', 'current_address_city', 'passport_country', 'birth_date', 'visibility', 'updated_at'],
  labels: {
    name_given: 'Given name',
    name_family: 'Family name',
    name_nickname: 'Nickname',
    name_legal: 'Legal name',
    current_address_city: 'City',
    current_address_street: 'Street',
    current_address_reference: 'Address reference',
    current_address_zipcode: 'Postcode',
    met_event_date: 'Date met',
    met_event_name: 'Where met (event)',
    associated_urls: 'Websites and links',
    is_fav: 'Favourite',
  },
  // Emails the user declined as suggestions: bookkeeping for the suggestion engine.
  omit: ['removed_email_suggestion'],
  // The investments they hold have a table of their own below (InvestmentsSection).
  relatedOmit: ['investments.owner_person'],
};
