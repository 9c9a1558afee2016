-- CreateTable
CREATE TABLE "StoredFileChunk" (
    "key" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "StoredFileChunk_pkey" PRIMARY KEY ("key","seq")
);
