-- AlterTable
ALTER TABLE "checkout_session_line_items" ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "order_items" ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;
