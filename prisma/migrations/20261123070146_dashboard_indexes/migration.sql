-- CreateIndex
CREATE INDEX "Assignment_studyId_purpose_idx" ON "Assignment"("studyId", "purpose");

-- CreateIndex
CREATE INDEX "Event_type_assignmentId_idx" ON "Event"("type", "assignmentId");
