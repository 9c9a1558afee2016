import type { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { count, duration, fixed, pct, pctInterval } from "@/components/dashboard/format";

type AnnotatorRows = Awaited<ReturnType<typeof getAnnotatorsOverview>>["rows"];

/** Each annotator's work and quality figures (the study's Annotators tab). */
export function AnnotatorQualityTable({ rows }: { rows: AnnotatorRows }) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Annotator</Th>
          <Th align="right">Items done</Th>
          <Th align="right">Accuracy (95% CI)</Th>
          <Th align="right">Mean confidence</Th>
          <Th align="right">Median time</Th>
          <Th align="right">Relative time</Th>
          <Th align="right">Alpha without</Th>
          <Th align="right">Focus losses</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100" data-testid="annotator-quality">
        {rows.map((r) => (
          <tr key={r.userId}>
            <Td className="min-w-[8rem] max-w-[14rem] whitespace-normal font-medium [overflow-wrap:anywhere]">
              {r.name} {!r.member ? <span className="text-xs font-normal text-slate-400">(not a member)</span> : null}
            </Td>
            <Td align="right" className="tabular-nums">
              {count(r.done)}
            </Td>
            <Td align="right" className="tabular-nums">
              {r.accuracy ? (
                <>
                  {pct(r.accuracy.share, 1)}% <span className="text-xs text-slate-500">{pctInterval([r.accuracy.lower, r.accuracy.upper])}</span>
                </>
              ) : (
                "–"
              )}
              {r.withoutCorrectness > 0 ? (
                <div className="text-[11px] text-slate-500" data-testid="without-correctness">
                  of {count(r.accuracy?.n ?? 0)}; {count(r.withoutCorrectness)} without a correctness left out
                </div>
              ) : null}
            </Td>
            <Td align="right" className="tabular-nums">
              {r.meanConfidence === null ? "–" : `${pct(r.meanConfidence, 1)}%`}
            </Td>
            <Td align="right" className="tabular-nums">
              <span title={`wall: ${duration(r.medianWallMs)}`}>{duration(r.medianActiveMs)}</span>
            </Td>
            <Td align="right" className="tabular-nums">
              {r.relativeSpeed === null ? "–" : `×${r.relativeSpeed.toFixed(2)}`} {r.farFaster ? <Badge tone="red">far faster</Badge> : null}
            </Td>
            <Td align="right" className="tabular-nums">
              {r.alphaWithout === null ? (
                "–"
              ) : r.alphaWithout.alpha === null ? (
                <span className="text-xs text-slate-500" title={r.alphaWithout.reason}>
                  n/a
                </span>
              ) : (
                fixed(r.alphaWithout.alpha, 3)
              )}
            </Td>
            <Td align="right" className="tabular-nums">
              {count(r.focusLosses)}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
