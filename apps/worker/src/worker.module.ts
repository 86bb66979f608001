import { Module } from '@nestjs/common';

/**
 * BullMQ processors (git import, change-request merge and update). Mounted by the worker
 * process and by the all-in-one process.
 */
@Module({})
export class WorkerModule {}
