-- One tab (or device) writes an assignment at a time (lib/responses/writer.ts), and each writer
-- numbers its own events: an event is stored once per (assignment, writer, seq), so two tabs'
-- events with the same seq are both kept. Existing events belong to the writer '' (none named).

-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "writer" TEXT,
ADD COLUMN     "writerSince" TIMESTAMP(3);

-- AlterTable (a constant default: no table rewrite)
ALTER TABLE "Event" ADD COLUMN     "writer" TEXT NOT NULL DEFAULT '';

-- CreateIndex (before the old one goes, so that no moment lacks a unique index)
CREATE UNIQUE INDEX "Event_assignmentId_writer_seq_key" ON "Event"("assignmentId", "writer", "seq");

-- DropIndex
DROP INDEX "Event_assignmentId_seq_key";
