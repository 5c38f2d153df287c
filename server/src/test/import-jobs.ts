/**
 * The engine's job handlers for tests that watch or break a spreadsheet import job: small
 * batches, and a hook run once a batch is committed and its progress written — to stop there
 * (a browser test reading the progress) or to fail the attempt (a worker dying mid-import).
 */
import { createJobRegistry, runnerOf, type JobContext, type JobRegistry } from '../jobs/registry.ts';
import type { Engine } from '../engine.ts';
import { spreadsheetImportJobs } from '../resources/import-job.ts';

export function importJobRegistry(engine: Engine, options: {
  batchRows: number;
  /** Runs after each committed batch's progress (percent above 0); throwing fails the attempt. */
  afterBatch?: (context: JobContext<'spreadsheet.import'>, percent: number) => Promise<void>;
}): JobRegistry {
  const importer = runnerOf(spreadsheetImportJobs(engine.services, engine.statistics, { batchRows: options.batchRows })['spreadsheet.import']!);
  const { afterBatch } = options;
  return createJobRegistry([
    {
      ...engine.jobs,
      'spreadsheet.import': (context) =>
        importer(
          afterBatch
            ? {
                ...context,
                progress: async (stage, percent) => {
                  await context.progress(stage, percent);
                  if (stage === 'importing' && percent > 0) await afterBatch(context, percent);
                },
              }
            : context,
        ),
    },
  ]);
}
