-- CreateIndex
CREATE INDEX "Item_studyId_practice_idx" ON "Item"("studyId", "practice");
