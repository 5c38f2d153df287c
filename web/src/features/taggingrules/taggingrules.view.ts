import type { ResourceView } from '../../components/resource-view';

/** Tagging rules (research): a word, phrase or regular expression → keywords. */
export const taggingRulesView: ResourceView = {
  kind: 'tagging_rules',
  basePath: '/taggingrules',
  listPath: '/taggingrules',
  title: 'Tagging rules',
  columns: ['display_name', 'pattern', 'match_type', 'keywords', 'enabled', 'updated_at'],
  labels: {
    display_name: 'Rule',
    match_type: 'Match',
    case_sensitive: 'Case-sensitive',
    enabled: 'Enabled (applied when records are saved)',
  },
};
