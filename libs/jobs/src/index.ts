export * from './queues';
export * from './job-queues';
export * from './job-workers';
export * from './git-import.job';
export * from './git-export.job';
export * from './change-request.job';
export * from './recovery/requeue';
export * from './installation-scope';
