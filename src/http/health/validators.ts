import { z } from 'zod';

export const componentHealthSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().int(),
  error: z.string().optional(),
});

export const healthResponseSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: componentHealthSchema,
    temporal: componentHealthSchema.extend({
      namespace: z.string(),
      taskQueue: z.string(),
      workerPolling: z.boolean(),
    }),
  })
  .openapi('Health');
export type HealthResponse = z.infer<typeof healthResponseSchema>;
