import { Card, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { CHECKLIST_SECTIONS } from "@/lib/report/checklist";
import type { StudyReport } from "@/lib/report/facts";

/** The filled checklist, a table per section: the entry's own number and name, its value (the choice as a badge) and its source; on a phone two columns, the number before the name and the source under the value. */
export function ReportSections({ report }: { report: StudyReport }) {
  return (
    <>
      {CHECKLIST_SECTIONS.map((section) => (
        <Card key={section.number}>
          <CardHeader title={`${section.number}. ${section.name}`} />
          <Table label={`${section.number}. ${section.name}`}>
            <thead>
              <tr>
                <Th className="hidden sm:table-cell">#</Th>
                <Th>Entry</Th>
                <Th>Value</Th>
                <Th className="hidden sm:table-cell">Source</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.entries
                .filter((entry) => entry.section === section.number)
                .map((entry) => (
                  <tr key={entry.number} data-entry={entry.number} className={entry.reported ? "" : "bg-slate-50"}>
                    <Td className="hidden font-mono text-xs sm:table-cell">{entry.number}</Td>
                    <Td className="min-w-28 whitespace-normal font-medium">
                      <span className="mr-1 font-mono text-xs font-normal text-slate-500 sm:hidden">{entry.number}</span>
                      <span data-entry-name="">{entry.name}</span>
                    </Td>
                    <Td className={`whitespace-normal ${entry.reported ? "" : "text-slate-500"}`}>
                      {entry.choice && entry.reported ? (
                        <Badge tone={entry.choice === "Yes" ? "green" : entry.choice === "No" ? "amber" : "slate"}>{entry.choice}</Badge>
                      ) : null}{" "}
                      {entry.value === entry.choice ? null : entry.value}
                      <span className="mt-1 block text-xs text-slate-500 sm:hidden">{entry.source}</span>
                    </Td>
                    <Td className="hidden whitespace-normal text-xs text-slate-500 sm:table-cell">{entry.source}</Td>
                  </tr>
                ))}
            </tbody>
          </Table>
        </Card>
      ))}
    </>
  );
}
