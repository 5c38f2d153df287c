// The web app's layer rules (docs/web.md) fail lint: each case lints a few lines as if they were
// a file of web/src, with the repository's own eslint.config.js, through ESLint's Node API.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` saved as `file` (relative to web/src). */
async function ruleErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'web/src', file) });
  assert.ok(result, 'ESLint returned no result');
  return result.messages.map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

const RESTRICTED = /^import\/no-restricted-paths: /;

describe('web layers: app → features → shared', () => {
  it('refuses a feature importing another feature', async () => {
    const errors = await ruleErrors(
      'features/people/Probe.tsx',
      "import { organizationsView } from '../organizations/organizations.view';\nexport const probe = organizationsView;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, RESTRICTED);
    assert.match(errors[0]!, /never imports another feature/);
  });

  it('refuses a feature importing app/', async () => {
    const errors = await ruleErrors(
      'features/ledger/Probe.tsx',
      "import { recordSections } from '../../app/record-sections';\nexport const probe = recordSections;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /Features never import app\//);
  });

  it('refuses shared code importing a feature or app/', async () => {
    const cases: Array<[string, string]> = [
      ['components/Probe.tsx', "import { peopleView } from '../features/people/people.view';\nexport const probe = peopleView;\n"],
      ['api/probe.ts', "import { sessionSlice } from '../app/session.slice';\nexport const probe = sessionSlice;\n"],
      ['lib/probe.ts', "import { LoginPage } from '../features/auth/LoginPage';\nexport const probe = LoginPage;\n"],
    ];
    for (const [file, code] of cases) {
      const errors = await ruleErrors(file, code);
      assert.equal(errors.length, 1, `${file}: ${errors.join('\n')}`);
      assert.match(errors[0]!, /Shared code \(api\/, components\/, lib\/\) never imports features or app\//);
    }
  });

  it('refuses an import cycle', async () => {
    // api/resources.ts imports api/api.ts: api.ts importing resources.ts back closes a cycle.
    const errors = await ruleErrors('api/api.ts', "import { resourcesApi } from './resources';\nexport const api = resourcesApi;\n");
    assert.deepEqual(errors.map((error) => error.split(':')[0]), ['import/no-cycle']);
  });

  it('lets app use features, and features use their own files and shared code', async () => {
    assert.deepEqual(
      await ruleErrors('app/probe.tsx', "import { peopleView } from '../features/people/people.view';\nexport const probe = peopleView;\n"),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'features/people/Probe.tsx',
        "import { notify } from '../../components/notify';\nimport { useSessionSelector } from '../../lib/session';\nimport { peopleView } from './people.view';\nexport const probe = [notify, useSessionSelector, peopleView];\n",
      ),
      [],
    );
  });
});
