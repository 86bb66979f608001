/** Every queue of the product. A job carries ids only: its request is already an event. */
export const QUEUES = {
  gitImport: 'git-import',
  gitExport: 'git-export',
  changeRequestMerge: 'change-request-merge',
  changeRequestUpdate: 'change-request-update',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
