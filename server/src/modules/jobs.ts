/** The job handlers of every module (each in its `<area>.jobs.ts`); jobs/registry.ts checks that every job type has one. */
import { createJobRegistry, type JobRegistry } from '../jobs/registry.ts';
import { probeJobs } from './probe/probe.jobs.ts';

export const jobRegistry = (): JobRegistry => createJobRegistry([probeJobs]);
