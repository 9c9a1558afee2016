-- Bootstrap intervals of large studies' dashboards, computed by a background job (issue 21): one
-- row per study and view (the page's choices), for the data version they were computed from.

-- CreateTable
CREATE TABLE "DashboardIntervals" (
    "studyId" TEXT NOT NULL,
    "viewKey" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "figures" TEXT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "computeMs" INTEGER NOT NULL,

    CONSTRAINT "DashboardIntervals_pkey" PRIMARY KEY ("studyId","viewKey")
);

-- AddForeignKey
ALTER TABLE "DashboardIntervals" ADD CONSTRAINT "DashboardIntervals_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
