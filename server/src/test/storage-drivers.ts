/**
 * The storage drivers tests run on: the local driver in a fresh temporary folder, and the S3
 * driver talking to s3rver on loopback. Call at the top of a test file (or a describe): the
 * folder and the server start in before() and are removed in after().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { LocalDriver } from '../storage/local.ts';
import { S3Driver } from '../storage/s3.ts';
import type { StorageDriver } from '../storage/storage.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';

export function testDrivers(): Array<[kind: StorageDriver['kind'], make: () => StorageDriver]> {
  let s3: TestS3Server | undefined;
  let localDir: string | undefined;
  before(async () => {
    s3 = await startS3Server();
    localDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-files-'));
  });
  after(async () => {
    await s3?.close();
    if (localDir) await rm(localDir, { recursive: true, force: true });
  });
  return [
    ['local', () => new LocalDriver(path.join(localDir!, 'files'))],
    ['s3', () => new S3Driver(s3!.settings)],
  ];
}
