import "server-only";
import { readDb } from "@/lib/db/read";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ExportFilter, ExportWhat } from "@/lib/exports/filter";

function itemFilterSql(filter: ExportFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filter.kind) parts.push(Prisma.sql`AND i.kind = ${filter.kind}`);
  if (filter.tag) {
    const [key, ...rest] = filter.tag.split("=");
    parts.push(Prisma.sql`AND i.tags ->> ${key} = ${rest.join("=")}`);
  }
  return parts.length > 0 ? Prisma.join(parts, " ") : Prisma.empty;
}

/** Rows each export would hold (SQL counts), for the Exports page. */
export async function exportTableCounts(studyId: string, filter: ExportFilter): Promise<Record<ExportWhat, number>> {
  const f = itemFilterSql(filter);
  const [row] = await readDb.$queryRaw<Array<{ items: bigint; responses: bigint; events: bigint; annotators: bigint; predictions: bigint }>>`
    SELECT
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = ${studyId} ${f}) AS items,
      (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}) AS responses,
      (SELECT count(*) FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}) AS events,
      (SELECT count(*) FROM (
        SELECT a."userId" FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}
        UNION SELECT m."userId" FROM "StudyMember" m WHERE m."studyId" = ${studyId} AND ${filter.kind || filter.tag ? Prisma.sql`false` : Prisma.sql`true`}
      ) u) AS annotators,
      (SELECT count(*) FROM "ModelPrediction" p JOIN "ModelRun" m ON m.id = p."runId" JOIN "Item" i ON i.id = p."itemId" WHERE m."studyId" = ${studyId} ${f}) AS predictions`;
  return { items: Number(row.items), responses: Number(row.responses), events: Number(row.events), annotators: Number(row.annotators), predictions: Number(row.predictions) };
}
