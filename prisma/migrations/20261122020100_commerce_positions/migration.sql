-- AlterTable
ALTER TABLE "variants" ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "prices" ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;
