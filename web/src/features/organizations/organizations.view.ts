import type { ResourceView } from '../../components/resource-view';

/** Organizations on the shared list, form and detail page. */
export const organizationsView: ResourceView = {
  kind: 'organizations',
  basePath: '/organizations',
  title: 'Organizations',
  columns: ['display_name', 'hq_city', 'ownership_type', 'founding_date', 'visibility', 'updated_at'],
  labels: {
    name_inc: 'Legal name',
    name_dba: 'Trading name (DBA)',
    hq_city: 'HQ city',
    associated_urls: 'Websites and links',
  },
  // The investments it holds have a table of their own below (InvestmentsSection).
  relatedOmit: ['investments.owner'],
};
