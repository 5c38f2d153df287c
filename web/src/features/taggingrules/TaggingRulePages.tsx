import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { ResourceListPage } from '../../components/ResourceListPage';
import { RuleTester } from './RuleTester';
import { taggingRulesView } from './taggingrules.view';

export function TaggingRuleListPage() {
  return <ResourceListPage view={taggingRulesView} listTabs={['0', '1']} />;
}

export function TaggingRuleDetailPage() {
  return <ResourceDetailPage view={taggingRulesView} />;
}

export function TaggingRuleCreatePage() {
  return <ResourceCreatePage view={taggingRulesView} renderBeforeFields={(form) => <RuleTester form={form} />} />;
}

export function TaggingRuleEditPage() {
  return <ResourceEditPage view={taggingRulesView} renderBeforeFields={(form) => <RuleTester form={form} />} />;
}
