-- CreateEnum
CREATE TYPE "ScoringJobStatus" AS ENUM ('PENDING', 'RUNNING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "ScorerCache" (
    "key" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "aspect" TEXT NOT NULL,
    "phrase" TEXT NOT NULL,
    "sentence" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "reply" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScorerCache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "ScoringJob" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "scorer" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "status" "ScoringJobStatus" NOT NULL DEFAULT 'PENDING',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "cacheHits" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "runner" TEXT,

    CONSTRAINT "ScoringJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScorerResult" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "scorer" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "responseId" TEXT,
    "predictionId" TEXT,
    "score" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScorerResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ScoringJob_studyId_createdAt_idx" ON "ScoringJob"("studyId", "createdAt");

-- CreateIndex
CREATE INDEX "ScoringJob_status_idx" ON "ScoringJob"("status");

-- CreateIndex
CREATE INDEX "ScorerResult_studyId_scorer_model_promptVersion_idx" ON "ScorerResult"("studyId", "scorer", "model", "promptVersion");

-- CreateIndex
CREATE UNIQUE INDEX "ScorerResult_responseId_scorer_model_promptVersion_key" ON "ScorerResult"("responseId", "scorer", "model", "promptVersion");

-- CreateIndex
CREATE UNIQUE INDEX "ScorerResult_predictionId_scorer_model_promptVersion_key" ON "ScorerResult"("predictionId", "scorer", "model", "promptVersion");

-- AddForeignKey
ALTER TABLE "ScoringJob" ADD CONSTRAINT "ScoringJob_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScorerResult" ADD CONSTRAINT "ScorerResult_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScorerResult" ADD CONSTRAINT "ScorerResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScorerResult" ADD CONSTRAINT "ScorerResult_predictionId_fkey" FOREIGN KEY ("predictionId") REFERENCES "ModelPrediction"("id") ON DELETE CASCADE ON UPDATE CASCADE;
