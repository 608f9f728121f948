import { defineConfig } from 'prisma/config';

// The Prisma CLI is only used for `prisma generate` here (see README, "Migrations"):
// migrations are SQL files applied by src/db/migrate.ts with Prisma-compatible bookkeeping.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
