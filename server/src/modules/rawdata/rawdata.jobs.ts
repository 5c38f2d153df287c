/** Raw data's jobs: processing an item (rawdata.processing.ts). */
import type { JobHandlers } from '../../jobs/registry.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { ResourceService } from '../../resources/service.ts';
import { RawDataProcessing } from './rawdata.processing.ts';
import { rawData } from './rawdata.resource.ts';

export function rawdataJobs(catalog: Catalog): JobHandlers {
  const processing = new RawDataProcessing(new ResourceService(rawData, catalog), catalog);
  return {
    'rawdata.process': { run: (job) => processing.run(job), failed: (ctx, failure) => processing.failed(ctx, failure) },
  };
}
