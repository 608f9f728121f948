/** Task queue names. Workflows and their activities share one queue per concern. */
export const taskQueues = {
  payments: process.env.TEMPORAL_TASK_QUEUE ?? 'payments',
} as const;
