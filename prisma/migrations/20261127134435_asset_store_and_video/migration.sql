-- AlterTable
ALTER TABLE "Asset" ADD COLUMN     "durationS" DOUBLE PRECISION,
ADD COLUMN     "height" INTEGER,
ADD COLUMN     "inObjectStore" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "width" INTEGER,
ALTER COLUMN "bytes" DROP NOT NULL;

-- Uncompressed, out of line: substring(bytes from a for n) reads only the TOAST chunks of the
-- range (HTTP Range serving of videos), instead of decompressing the value from its start.
-- Images and videos are compressed formats already, so nothing is lost.
ALTER TABLE "Asset" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
